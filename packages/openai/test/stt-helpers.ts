import { PassThrough } from 'node:stream'
import { Resampler } from '@openmic/core/provider'
import type { STT } from '@openmic/core'
import { createFakeOpenaiRealtime, type FakeOpenaiRealtime } from '@openmic/testing'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { OpenaiSTT, type OpenaiSTTOptions } from '../src/index.js'

/** `ms` of a 440 Hz tone, PCM16 16 kHz mono, cut into chunks of `chunkMs`. */
export function speech(ms: number, chunkMs = 20, frequency = 440): Buffer[] {
  const samples = Math.round((ms * 16_000) / 1000)
  const audio = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    const value = Math.round(8000 * Math.sin((2 * Math.PI * frequency * i) / 16_000))
    audio.writeInt16LE(value, i * 2)
  }
  const size = Math.round((chunkMs * 16_000) / 1000) * 2
  const chunks: Buffer[] = []
  for (let offset = 0; offset < audio.length; offset += size) {
    chunks.push(audio.subarray(offset, offset + size))
  }
  return chunks
}

/** What the provider must receive for these 16 kHz chunks: the same audio at 24 kHz. */
export function resampled(chunks: Buffer[]): Buffer {
  const resampler = new Resampler({ fromRate: 16_000, toRate: 24_000 })
  return Buffer.concat([...chunks.map((chunk) => resampler.write(chunk)), resampler.end()])
}

/** An utterance's audio stream, written at once and ended (unless `end: false`). */
export function utterance(chunks: Buffer[], options: { end?: boolean } = {}): PassThrough {
  const stream = new PassThrough()
  for (const chunk of chunks) stream.write(chunk)
  if (options.end !== false) stream.end()
  return stream
}

export type STTOutcome =
  | { type: 'Transcript'; text: string; partials: string[] }
  | { type: 'Failed'; error: any; partials: string[] }

/** The next `Transcript` or `Failed` of an STT, with the `Partial`s before it. */
export function outcome(stt: STT): Promise<STTOutcome> {
  return new Promise((resolve) => {
    const partials: string[] = []
    const onPartial = (text: string) => partials.push(text)
    const done = (result: STTOutcome) => {
      stt.off('Partial', onPartial)
      stt.off('Transcript', onTranscript)
      stt.off('Failed', onFailed)
      resolve(result)
    }
    const onTranscript = (text: string) => done({ type: 'Transcript', text, partials })
    const onFailed = (error: unknown) => done({ type: 'Failed', error, partials })
    stt.on('Partial', onPartial)
    stt.on('Transcript', onTranscript)
    stt.on('Failed', onFailed)
  })
}

/** Transcribes one utterance of `chunks` and returns its outcome. */
export function transcribeOnce(stt: STT, chunks: Buffer[]): Promise<STTOutcome> {
  const result = outcome(stt)
  stt.transcribe(utterance(chunks))
  return result
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A fake Realtime server shared by a test file (reset before each test), and a factory of
 * OpenaiSTT instances talking to it, destroyed after each test.
 */
export function useFakeRealtime(): {
  readonly fake: FakeOpenaiRealtime
  stt(options?: OpenaiSTTOptions): OpenaiSTT
} {
  let fake: FakeOpenaiRealtime
  const instances: OpenaiSTT[] = []
  beforeAll(async () => {
    fake = await createFakeOpenaiRealtime({ apiKey: 'sk-test' })
  })
  beforeEach(() => fake.reset())
  afterEach(() => {
    for (const instance of instances.splice(0)) instance.destroy()
    fake.closeConnections()
  })
  afterAll(() => fake.close())
  return {
    get fake() {
      return fake
    },
    stt(options = {}) {
      const instance = new OpenaiSTT({ apiKey: 'sk-test', baseURL: fake.baseURL, ...options })
      instances.push(instance)
      return instance
    },
  }
}
