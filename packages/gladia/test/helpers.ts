import { Logger } from '@openmic/core'
import { createFakeGladiaLive, type FakeGladiaLive } from '@openmic/testing'
import type { FakeGladiaLiveOptions } from '@openmic/testing'
import { PassThrough } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach } from 'vitest'
import { GladiaSTT, type GladiaSTTOptions } from '../src/index.js'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A fake Gladia live API, closed after the test. */
export async function fakeGladia(options: FakeGladiaLiveOptions = {}): Promise<FakeGladiaLive> {
  const fake = await createFakeGladiaLive(options)
  cleanups.push(() => fake.close())
  return fake
}

/** A GladiaSTT on `fake`, destroyed after the test, with what it emitted and logged. */
export function sttOn(fake: FakeGladiaLive, options: GladiaSTTOptions = {}) {
  const stt = new GladiaSTT({
    apiKey: 'test-key',
    baseURL: fake.baseURL,
    retryDelayMs: 5,
    ...options,
  })
  const logs: string[] = []
  stt.logger = new Logger('GladiaSTT', (_prefix, ...message) => logs.push(message.join(' ')))
  const events: Array<{ type: string; value?: unknown }> = []
  stt.on('Partial', (value) => events.push({ type: 'Partial', value }))
  stt.on('Transcript', (value) => events.push({ type: 'Transcript', value }))
  stt.on('TranscriptEnd', () => events.push({ type: 'TranscriptEnd' }))
  stt.on('Failed', (value) => events.push({ type: 'Failed', value }))
  cleanups.push(() => stt.destroy())
  const ends = () => events.filter((e) => e.type === 'TranscriptEnd' || e.type === 'Failed')
  return {
    stt,
    events,
    logs,
    /** Transcript and Failed events, in order. */
    outcomes: () => events.filter((e) => e.type === 'Transcript' || e.type === 'Failed'),
    /** Resolves once `count` utterances ended (TranscriptEnd or Failed). */
    async waitForEnds(count: number, timeoutMs = 3000) {
      await until(
        () => ends().length >= count,
        timeoutMs,
        () => `${ends().length} of ${count} ends`
      )
      return ends()
    },
  }
}

/** `bytes` distinct bytes of PCM16 audio, so each chunk can be told apart. */
export function chunk(seed: number, bytes = 640): Buffer {
  const buffer = Buffer.alloc(bytes)
  for (let i = 0; i < bytes; i++) buffer[i] = (seed * 31 + i) % 256
  return buffer
}

/** Streams `chunks` as one utterance and ends it. */
export function say(stt: GladiaSTT, ...chunks: Buffer[]): PassThrough {
  const audio = new PassThrough()
  stt.transcribe(audio)
  for (const piece of chunks) audio.write(piece)
  audio.end()
  return audio
}

export async function until(
  done: () => boolean,
  timeoutMs = 3000,
  what: () => string = () => 'condition'
): Promise<void> {
  const start = Date.now()
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what()}`)
    await sleep(2)
  }
}
