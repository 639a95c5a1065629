import { Logger } from '@openmic/core'
import { createFakeMistralRealtime, type FakeMistralRealtime } from '@openmic/testing'
import type { FakeMistralRealtimeOptions } from '@openmic/testing'
import { PassThrough } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach } from 'vitest'
import { MistralSTT, type MistralSTTOptions } from '../src/index.js'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A fake realtime server, closed after the test. */
export async function fakeRealtime(options: FakeMistralRealtimeOptions = {}) {
  const fake = await createFakeMistralRealtime(options)
  cleanups.push(() => fake.close())
  return fake
}

/** A MistralSTT on `fake`, destroyed after the test, with what it emitted and logged. */
export function sttOn(fake: FakeMistralRealtime, options: MistralSTTOptions = {}) {
  const stt = new MistralSTT({ apiKey: 'test-key', serverURL: fake.serverURL, ...options })
  const logs: string[] = []
  stt.logger = new Logger('MistralSTT', (_prefix, ...message) => logs.push(message.join(' ')))
  const events: Array<{ type: string; value: unknown }> = []
  stt.on('Partial', (value) => events.push({ type: 'Partial', value }))
  stt.on('Transcript', (value) => events.push({ type: 'Transcript', value }))
  stt.on('Failed', (value) => events.push({ type: 'Failed', value }))
  cleanups.push(() => stt.destroy())
  const ends = () => events.filter((e) => e.type !== 'Partial')
  return {
    stt,
    events,
    logs,
    /** The Transcript and Failed events so far. */
    ends,
    /** Resolves once `count` utterances ended (Transcript or Failed). */
    async waitForEnds(count: number, timeoutMs = 3000) {
      const start = Date.now()
      while (ends().length < count) {
        if (Date.now() - start > timeoutMs) throw new Error(`${ends().length} of ${count} ends`)
        await sleep(2)
      }
      return ends()
    },
  }
}

/** An utterance stream fed by the test. */
export function utterance() {
  return new PassThrough()
}

/** `count` distinct bytes of PCM16 audio, so each chunk can be told apart. */
export function chunk(seed: number, bytes = 640): Buffer {
  const buffer = Buffer.alloc(bytes)
  for (let i = 0; i < bytes; i++) buffer[i] = (seed * 31 + i) % 256
  return buffer
}

/** Streams `chunks` as one utterance and ends it. */
export function say(stt: MistralSTT, ...chunks: Buffer[]): PassThrough {
  const audio = utterance()
  stt.transcribe(audio)
  for (const piece of chunks) audio.write(piece)
  audio.end()
  return audio
}

export async function until(done: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now()
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error('Timed out')
    await sleep(2)
  }
}
