// Mistral's raw clients, all through the official `@mistralai/mistralai` SDK: its realtime
// transcription client, `chat.stream` and the streamed `audio.speech.complete`.
import { Mistral } from '@mistralai/mistralai'
import { RealtimeTranscription, type RealtimeConnection } from '@mistralai/mistralai/extra/realtime'
import { CompleteAcceptEnum } from '@mistralai/mistralai/sdk/speech.js'
import type { RawModel, RawSTT, RawTTS } from '../raw-chain.js'

/**
 * The SDK's realtime transcription session (it waits for `session.created` and sends the audio
 * format): audio appended, `input_audio.flush` ends the utterance, `transcription.done` is its
 * transcript. The session's events are read as they come, by the SDK's own iterator.
 */
export function mistralRealtimeSTT(serverURL: string): RawSTT {
  const client = new RealtimeTranscription({ apiKey: 'k', serverURL })
  const connecting = client.connect('voxtral-mini-transcribe-realtime-2602', {
    audioFormat: { encoding: 'pcm_s16le', sampleRate: 16_000 },
  })
  let connection: RealtimeConnection | undefined
  let waiting: { resolve(text: string): void; reject(error: Error): void } | undefined
  connecting
    .then(async (opened) => {
      connection = opened
      for await (const event of opened) {
        if (event.type === 'transcription.done' && 'text' in event) waiting?.resolve(event.text)
        else if (event.type === 'error') waiting?.reject(new Error(JSON.stringify(event)))
      }
    })
    .catch((error: Error) => waiting?.reject(error))
  return {
    ready: async () => void (await connecting),
    send: (chunk) => void connection!.sendAudio(chunk),
    end: () =>
      new Promise<string>((resolve, reject) => {
        waiting = { resolve, reject }
        connection!.flushAudio().catch(reject)
      }),
    close: () => void connection?.close(),
  }
}

/** `chat.stream`: the SDK parses (and validates) each chunk; the text is in its deltas. */
export function mistralChatModel(serverURL: string): RawModel {
  const mistral = new Mistral({ apiKey: 'k', serverURL, retryConfig: { strategy: 'none' } })
  return async (messages, onText) => {
    const events = await mistral.chat.stream({ model: 'mistral-small-latest', messages })
    for await (const event of events) {
      const content = event.data.choices[0]?.delta.content
      if (typeof content === 'string' && content !== '') onText(content)
    }
  }
}

/** One streamed speech request per sentence: its first `speech.audio.delta` is the first audio. */
export function mistralSpeechTTS(serverURL: string): RawTTS {
  const mistral = new Mistral({ apiKey: 'k', serverURL, retryConfig: { strategy: 'none' } })
  return {
    begin: () => {
      const abort = new AbortController()
      return {
        say: async (sentence) => {
          const events = await mistral.audio.speech.complete(
            {
              model: 'voxtral-mini-tts-latest',
              voiceId: 'en_paul_neutral',
              input: sentence,
              responseFormat: 'pcm',
              stream: true,
            },
            {
              fetchOptions: { signal: abort.signal },
              acceptHeaderOverride: CompleteAcceptEnum.textEventStream,
            }
          )
          // Read by hand: leaving a `for await` would cancel the stream before the clock stops.
          const iterator = events[Symbol.asyncIterator]()
          for (;;) {
            const next = await iterator.next()
            if (next.done) throw new Error('Mistral speech: no audio')
            if (next.value.data.type === 'speech.audio.delta') return
          }
        },
        end: () => abort.abort(),
      }
    },
    close: () => {},
  }
}
