// OpenAI's raw clients: realtime transcription over `ws` (OpenAI's docs speak it so, and so does
// OpenaiSTT), the Responses API and the speech API through the official `openai` SDK.
import OpenAI from 'openai'
import type { RawModel, RawSTT, RawTTS } from '../raw-chain.js'
import { JsonSocket, type Message } from './json-socket.js'

/**
 * A transcription session on `/realtime?intent=transcription`: `session.update` once open, the
 * audio appended, `input_audio_buffer.commit` ends the utterance, and its item's
 * `...transcription.completed` is the transcript. The audio goes as it comes: the fake does not
 * listen to it, and a resampling to the API's 24 kHz would be done before the end of speech.
 */
export function openaiRealtimeSTT(baseURL: string): RawSTT {
  const socket = new JsonSocket(
    `${baseURL.replace(/^http/, 'ws')}/realtime?intent=transcription`,
    { Authorization: 'Bearer k' },
    (message) => (message.type === 'error' ? JSON.stringify(message.error) : undefined)
  )
  socket.ws.once('open', () =>
    socket.send({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: {
          input: {
            format: { type: 'audio/pcm', rate: 24_000 },
            transcription: { model: 'gpt-4o-transcribe', language: 'en' },
            turn_detection: null,
          },
        },
      },
    })
  )
  return {
    ready: () => socket.opened,
    send: (chunk) =>
      socket.send({ type: 'input_audio_buffer.append', audio: chunk.toString('base64') }),
    end: () => {
      const transcript = socket.next((message: Message) =>
        message.type === 'conversation.item.input_audio_transcription.completed'
          ? String(message.transcript)
          : undefined
      )
      socket.send({ type: 'input_audio_buffer.commit' })
      return transcript
    },
    close: () => socket.close(),
  }
}

/** A streamed Responses API call; the text is in its `response.output_text.delta` events. */
export function openaiResponsesModel(baseURL: string): RawModel {
  const openai = new OpenAI({ apiKey: 'k', baseURL, maxRetries: 0 })
  return async (messages, onText) => {
    const stream = await openai.responses.create({
      model: 'gpt-4.1-mini',
      input: messages,
      stream: true,
    })
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') onText(event.delta)
    }
  }
}

/**
 * One speech request per sentence (`response_format: 'pcm'`): its body's first chunk is the first
 * audio byte.
 */
export function openaiSpeechTTS(baseURL: string): RawTTS {
  const openai = new OpenAI({ apiKey: 'k', baseURL, maxRetries: 0 })
  return {
    begin: () => {
      const abort = new AbortController()
      return {
        say: async (sentence) => {
          const response = await openai.audio.speech.create(
            { model: 'gpt-4o-mini-tts', voice: 'alloy', input: sentence, response_format: 'pcm' },
            { signal: abort.signal }
          )
          const reader = response.body!.getReader()
          const { done } = await reader.read()
          if (done) throw new Error('OpenAI speech: no audio')
        },
        end: () => abort.abort(),
      }
    },
    close: () => {},
  }
}
