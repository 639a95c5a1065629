// ElevenLabs' raw clients over `ws`, as ElevenLabs' docs show them (and as ElevenLabsSTT and
// ElevenLabsTTS speak them): Scribe realtime with manual commits, multi-context TTS.
import type { RawSTT, RawTTS } from '../raw-chain.js'
import { JsonSocket, type Message } from './json-socket.js'

const HEADERS = { 'xi-api-key': 'k' }

/** Scribe's error messages (`auth_error`, `quota_exceeded`...) say their `error`. */
const errorOf = (message: Message) =>
  typeof message.error === 'string' ? JSON.stringify(message) : undefined

/** `input_audio_chunk`s, the last with `commit: true`; its `committed_transcript` is the text. */
export function elevenLabsSTT(baseURL: string): RawSTT {
  const query = 'model_id=scribe_v2_realtime&audio_format=pcm_16000&commit_strategy=manual'
  const socket = new JsonSocket(
    `${baseURL.replace(/^http/, 'ws')}/v1/speech-to-text/realtime?${query}`,
    HEADERS,
    errorOf
  )
  const chunk = (audio: Buffer, commit: boolean) => ({
    message_type: 'input_audio_chunk',
    audio_base_64: audio.toString('base64'),
    commit,
    sample_rate: 16_000,
  })
  return {
    ready: () => socket.opened,
    send: (audio) => socket.send(chunk(audio, false)),
    end: () => {
      const transcript = socket.next((message) =>
        message.message_type === 'committed_transcript' ? String(message.text) : undefined
      )
      socket.send(chunk(Buffer.alloc(0), true))
      return transcript
    },
    close: () => socket.close(),
  }
}

/**
 * One context per answer on a multi-context socket: opened with `' '` as the model is asked, the
 * sentence sent with `flush: true`, its first `audio` the first byte, then `close_context` (the
 * audio of what was flushed still comes, then `isFinal`).
 */
export function elevenLabsTTS(baseURL: string): RawTTS {
  const query = 'model_id=eleven_turbo_v2_5&output_format=pcm_16000'
  const socket = new JsonSocket(
    `${baseURL.replace(/^http/, 'ws')}/v1/text-to-speech/v/multi-stream-input?${query}`,
    HEADERS,
    errorOf
  )
  let contexts = 0
  return {
    ready: () => socket.opened,
    begin: () => {
      const context_id = `raw_${++contexts}`
      socket.send({ text: ' ', context_id })
      return {
        say: async (sentence) => {
          const audio = socket.next((message) =>
            message.contextId === context_id && typeof message.audio === 'string' ? true : undefined
          )
          socket.send({ text: `${sentence} `, context_id, flush: true })
          await audio
        },
        end: async () => {
          const final = socket.next((message) =>
            message.contextId === context_id && message.isFinal === true ? true : undefined
          )
          socket.send({ context_id, close_context: true })
          await final
        },
      }
    },
    close: () => socket.close(),
  }
}
