// Gradium's raw clients over `ws`, as Gradium's docs show them (and as GradiumSTT and GradiumTTS
// speak them): the streaming ASR, and the TTS multiplexed by `client_req_id`.
import type { RawSTT, RawTTS } from '../raw-chain.js'
import { JsonSocket, type Message } from './json-socket.js'

const HEADERS = { 'x-api-key': 'k' }
const errorOf = (message: Message) =>
  message.type === 'error' ? JSON.stringify(message) : undefined

/**
 * `setup` once open, audio once `ready`, `flush` (with its id) ends the utterance, whose `text`
 * segments are the transcript once its `flushed` came.
 */
export function gradiumSTT(baseURL: string): RawSTT {
  const socket = new JsonSocket(
    `${baseURL.replace(/^http/, 'ws')}/api/speech/asr`,
    HEADERS,
    errorOf
  )
  const ready = socket.next((message) => (message.type === 'ready' ? true : undefined))
  ready.catch(() => {}) // awaited by each turn
  socket.ws.once('open', () =>
    socket.send({ type: 'setup', model_name: 'default', input_format: 'pcm_16000' })
  )
  let flushes = 0
  return {
    ready: async () => void (await ready),
    send: (chunk) => socket.send({ type: 'audio', audio: chunk.toString('base64') }),
    end: async () => {
      const flush_id = String(++flushes)
      const texts: string[] = []
      const flushed = socket.next((message) => {
        if (message.type === 'text') texts.push(String(message.text))
        return message.type === 'flushed' && String(message.flush_id) === flush_id
          ? true
          : undefined
      })
      socket.send({ type: 'flush', flush_id })
      await flushed
      return texts.join(' ')
    },
    close: () => socket.close(),
  }
}

/**
 * One request per answer: its `setup` sent as the model is asked, its text once `ready`, its
 * first `audio` the first byte, then `end_of_stream` (Gradium sends the rest of the audio of
 * the text it was given, then its own `end_of_stream`).
 */
export function gradiumTTS(baseURL: string): RawTTS {
  const socket = new JsonSocket(
    `${baseURL.replace(/^http/, 'ws')}/api/speech/tts`,
    HEADERS,
    errorOf
  )
  let requests = 0
  return {
    ready: () => socket.opened,
    begin: () => {
      const client_req_id = String(++requests)
      const mine = (message: Message, type: string) =>
        message.type === type && message.client_req_id === client_req_id ? true : undefined
      const ready = socket.next((message) => mine(message, 'ready'))
      ready.catch(() => {}) // awaited once the sentence is known
      socket.send({
        type: 'setup',
        model_name: 'default',
        voice_id: 'v',
        output_format: 'pcm_16000',
        client_req_id,
        close_ws_on_eos: false,
      })
      return {
        say: async (sentence) => {
          await ready
          const audio = socket.next((message) => mine(message, 'audio'))
          socket.send({ type: 'text', text: sentence, client_req_id })
          await audio
        },
        end: async () => {
          const over = socket.next((message) => mine(message, 'end_of_stream'))
          socket.send({ type: 'end_of_stream', client_req_id })
          await over
        },
      }
    },
    close: () => socket.close(),
  }
}
