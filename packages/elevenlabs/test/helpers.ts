import { PassThrough, Readable } from 'node:stream'
import type { STT, TTS, TTSWord } from '@openmic/core'

/** `ms` of a 440 Hz tone, PCM16 16 kHz mono, cut into chunks of `chunkMs`. */
export function speech(ms: number, chunkMs = 20): Buffer[] {
  const samples = Math.round((ms * 16_000) / 1000)
  const audio = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    audio.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16_000)), i * 2)
  }
  const size = Math.round((chunkMs * 16_000) / 1000) * 2
  const chunks: Buffer[] = []
  for (let offset = 0; offset < audio.length; offset += size) {
    chunks.push(audio.subarray(offset, offset + size))
  }
  return chunks
}

/** An utterance's audio stream, written at once and ended (unless `end: false`). */
export function utterance(chunks: Buffer[], options: { end?: boolean } = {}): PassThrough {
  const stream = new PassThrough()
  for (const chunk of chunks) stream.write(chunk)
  if (options.end !== false) stream.end()
  return stream
}

/** Every event an STT emits, in order, with its arguments. */
export function sttEvents(stt: STT): Array<[string, ...unknown[]]> {
  const events: Array<[string, ...unknown[]]> = []
  stt.on('Partial', (text) => events.push(['Partial', text]))
  stt.on('Transcript', (text) => events.push(['Transcript', text]))
  stt.on('TranscriptEnd', () => events.push(['TranscriptEnd']))
  stt.on('Failed', (error) => events.push(['Failed', error]))
  return events
}

/** What a TTS emits, collected. */
export interface TTSLog {
  audio: Buffer[]
  words: TTSWord[]
  ends: number
  failures: unknown[]
  /** Event names in order. */
  order: string[]
}

export function ttsLog(tts: TTS): TTSLog {
  const log: TTSLog = { audio: [], words: [], ends: 0, failures: [], order: [] }
  tts.on('Audio', (audio) => {
    log.audio.push(audio)
    log.order.push('Audio')
  })
  tts.on('Words', (words) => {
    log.words.push(...words)
    log.order.push('Words')
  })
  tts.on('AudioEnd', () => {
    log.ends++
    log.order.push('AudioEnd')
  })
  tts.on('Failed', (error) => {
    log.failures.push(error)
    log.order.push('Failed')
  })
  return log
}

/** A text stream of these pieces, ended. */
export function text(...pieces: string[]): Readable {
  return Readable.from(pieces)
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves once `predicate()` holds, or rejects after `timeoutMs`. */
export async function until(predicate: () => boolean, timeoutMs = 3000, what = 'condition') {
  const start = Date.now()
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await sleep(2)
  }
}
