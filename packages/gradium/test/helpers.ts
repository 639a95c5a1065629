import { Logger } from '@openmic/core'
import {
  createFakeGradiumSTT,
  createFakeGradiumTTS,
  type FakeGradiumSTT,
  type FakeGradiumSTTOptions,
  type FakeGradiumTTS,
  type FakeGradiumTTSOptions,
} from '@openmic/testing'
import { PassThrough } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach } from 'vitest'
import {
  GradiumSTT,
  GradiumTTS,
  type GradiumSTTOptions,
  type GradiumTTSOptions,
} from '../src/index.js'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Events an STT or TTS emitted, in order. */
export type Emitted = Array<{ type: string; value?: unknown }>

/** A fake Gradium ASR, closed after the test. */
export async function fakeASR(options: FakeGradiumSTTOptions = {}): Promise<FakeGradiumSTT> {
  const fake = await createFakeGradiumSTT(options)
  cleanups.push(() => fake.close())
  return fake
}

/** A fake Gradium TTS, closed after the test. */
export async function fakeTTS(options: FakeGradiumTTSOptions = {}): Promise<FakeGradiumTTS> {
  const fake = await createFakeGradiumTTS(options)
  cleanups.push(() => fake.close())
  return fake
}

/** A GradiumSTT on `fake`, destroyed after the test, with what it emitted and logged. */
export function sttOn(fake: FakeGradiumSTT, options: GradiumSTTOptions = {}) {
  const stt = new GradiumSTT({ apiKey: 'test-key', baseURL: fake.baseURL, ...options })
  const logs: string[] = []
  stt.logger = new Logger('GradiumSTT', (_prefix, ...message) => logs.push(message.join(' ')))
  const events: Emitted = []
  for (const type of ['Partial', 'Transcript', 'TranscriptEnd', 'Failed'] as const) {
    stt.on(type as 'Partial', (value?: unknown) => events.push({ type, value }))
  }
  cleanups.push(() => stt.destroy())
  const ends = () => events.filter((e) => e.type === 'Transcript' || e.type === 'Failed')
  return {
    stt,
    events,
    logs,
    /** Resolves once `count` utterances ended (Transcript or Failed). */
    waitForEnds: (count: number, timeoutMs = 3000) =>
      until(
        () => ends().length >= count,
        timeoutMs,
        () => `${ends().length} of ${count} ends`
      ),
  }
}

/** A GradiumTTS on `fake`, destroyed after the test, with what it emitted. */
export function ttsOn(fake: FakeGradiumTTS, options: Partial<GradiumTTSOptions> = {}) {
  const tts = new GradiumTTS({
    apiKey: 'test-key',
    voiceId: 'test-voice',
    baseURL: fake.baseURL,
    ...options,
  })
  const events: Emitted = []
  for (const type of ['Audio', 'Words', 'AudioEnd', 'Failed'] as const) {
    tts.on(type as 'Audio', (value?: unknown) => events.push({ type, value }))
  }
  cleanups.push(() => tts.destroy())
  return {
    tts,
    events,
    /** The audio emitted since event number `from`, joined. */
    audio: (from = 0) =>
      Buffer.concat(
        events
          .slice(from)
          .filter((e) => e.type === 'Audio')
          .map((e) => e.value as Buffer)
      ),
    /** Resolves once an `AudioEnd` or `Failed` came after event number `from`. */
    waitForEnd: (from = 0, timeoutMs = 3000) =>
      until(
        () => events.slice(from).some((e) => e.type === 'AudioEnd' || e.type === 'Failed'),
        timeoutMs,
        () => 'no AudioEnd or Failed'
      ),
  }
}

/** A text or audio stream fed by the test. */
export function stream() {
  return new PassThrough()
}

/** `bytes` distinct bytes of PCM16 audio, so each chunk can be told apart. */
export function chunk(seed: number, bytes = 640): Buffer {
  const buffer = Buffer.alloc(bytes)
  for (let i = 0; i < bytes; i++) buffer[i] = (seed * 31 + i) % 256
  return buffer
}

/** Resolves once `done()` holds. */
export async function until(done: () => boolean, timeoutMs = 3000, what = () => 'condition') {
  const start = Date.now()
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what()}`)
    await sleep(2)
  }
}

/** The `type` of each recorded message. */
export const types = (messages: unknown[]) =>
  messages.map((m) => (typeof m === 'object' && m ? (m as { type: string }).type : m))
