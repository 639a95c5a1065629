// Cartesia's raw clients: the official SDK's manual-finalize STT socket (as CartesiaSTT uses it),
// and the TTS WebSocket over `ws` (the SDK's `tts.websocket()` connects with `wss:` only, so it
// cannot reach a local server; CartesiaTTS speaks it over `ws` too).
import type * as CartesiaSDK from '@cartesia/cartesia-js'
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import type { RawSTT, RawTTS } from '../raw-chain.js'
import { JsonSocket } from './json-socket.js'

/** The SDK's CommonJS build: its ESM build finds no `ws` on Node 20 (see @openmic/cartesia). */
const { Cartesia } = createRequire(import.meta.url)('@cartesia/cartesia-js') as typeof CartesiaSDK

/** Binary audio frames, `finalize` ends the utterance, `flush_done` once its finals came. */
export function cartesiaSTT(baseURL: string): RawSTT {
  const cartesia = new Cartesia({ apiKey: 'k', baseURL, maxRetries: 0 })
  const ws = cartesia.stt.manualFinalize.websocket(
    { model: 'ink-whisper', encoding: 'pcm_s16le', sample_rate: 16_000 },
    { reconnect: null }
  )
  const opened = new Promise<void>((resolve) =>
    (ws.socket as unknown as { on(event: 'open', listener: () => void): void }).on('open', resolve)
  )
  let finals = ''
  let waiting: { resolve(text: string): void; reject(error: Error): void } | undefined
  ws.on('event', (event) => {
    if (event.type === 'transcript' && event.is_final) finals += event.text
    else if (event.type === 'flush_done') waiting?.resolve(finals.trim())
    else if (event.type === 'error') waiting?.reject(new Error(JSON.stringify(event)))
  })
  return {
    ready: () => opened,
    send: (chunk) => ws.sendRaw(chunk),
    end: () =>
      new Promise<string>((resolve, reject) => {
        finals = ''
        waiting = { resolve, reject }
        ws.send('finalize')
      }),
    close: () => ws.close(),
  }
}

/**
 * One context per answer: the sentence as one generation request (`continue: false`), its first
 * `chunk` the first audio, then `cancel` for what is left.
 */
export function cartesiaTTS(baseURL: string): RawTTS {
  const socket = new JsonSocket(
    `${baseURL.replace(/^http/, 'ws')}/tts/websocket`,
    { Authorization: 'Bearer k', 'Cartesia-Version': '2026-08-14' },
    (message) => (message.type === 'error' ? JSON.stringify(message) : undefined)
  )
  return {
    ready: () => socket.opened,
    begin: () => {
      const context_id = randomUUID()
      return {
        say: async (sentence) => {
          const audio = socket.next((message) =>
            message.type === 'chunk' && message.context_id === context_id ? true : undefined
          )
          socket.send({
            model_id: 'sonic-3',
            voice: { mode: 'id', id: 'v' },
            output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16_000 },
            transcript: sentence,
            context_id,
            continue: false,
          })
          await audio
        },
        end: () => socket.send({ context_id, cancel: true }),
      }
    },
    close: () => socket.close(),
  }
}
