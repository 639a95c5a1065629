import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { CAPTURE_PROCESSOR_NAME, CAPTURE_WORKLET_SOURCE } from './capture-worklet.js'
import type { CaptureFrameMessage } from './capture-worklet.js'

/** Runs the worklet source as the browser would, in a scope with a fake AudioWorklet API. */
function loadProcessor(contextRate: number, frameSamples = 320) {
  const posted: CaptureFrameMessage[] = []
  let Processor: any
  class AudioWorkletProcessor {
    port = { postMessage: (message: CaptureFrameMessage) => posted.push(message) }
  }
  runInNewContext(CAPTURE_WORKLET_SOURCE, {
    AudioWorkletProcessor,
    sampleRate: contextRate,
    registerProcessor: (name: string, processor: unknown) => {
      expect(name).toBe(CAPTURE_PROCESSOR_NAME)
      Processor = processor
    },
    Float32Array,
    Int16Array,
    Math,
  })
  const processor = new Processor({ processorOptions: { targetRate: 16000, frameSamples } })
  /** Feeds `samples` in render quanta of 128, as the audio thread does. */
  const feed = (samples: Float32Array, channels = 1) => {
    for (let offset = 0; offset < samples.length; offset += 128) {
      const block = samples.slice(offset, offset + 128)
      expect(processor.process([Array.from({ length: channels }, () => block)])).toBe(true)
    }
  }
  const output = () => Int16Array.from(posted.flatMap((message) => Array.from(message.pcm)))
  return { feed, posted, output }
}

function sine(rate: number, hz: number, seconds: number, amplitude = 0.5) {
  return Float32Array.from(
    { length: Math.round(rate * seconds) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate)
  )
}

describe('capture worklet', () => {
  for (const rate of [48000, 44100, 16000, 8000]) {
    it(`resamples ${rate} Hz to 16 kHz PCM16 that matches the signal`, () => {
      const { feed, output, posted } = loadProcessor(rate)
      feed(sine(rate, 300, 1))
      const out = output()
      // One second in, one second out (minus what waits for the next quantum)
      expect(out.length).toBeGreaterThan(16000 - 400)
      expect(out.length).toBeLessThanOrEqual(16000)
      expect(posted.every((message) => message.pcm.length === 320)).toBe(true)
      // Sample by sample, the output is the 300 Hz sine at 16 kHz (the filter adds no delay)
      let maxError = 0
      for (let i = 100; i < out.length; i++) {
        const expected = 0.5 * Math.sin((2 * Math.PI * 300 * i) / 16000)
        maxError = Math.max(maxError, Math.abs(out[i]! / 32768 - expected))
      }
      expect(maxError).toBeLessThan(0.02)
    })
  }

  it('removes what 16 kHz cannot carry instead of folding it back (12 kHz tone at 48 kHz)', () => {
    const { feed, output } = loadProcessor(48000)
    feed(sine(48000, 12000, 0.5))
    const out = output()
    const rms = Math.sqrt(out.reduce((sum, s) => sum + (s / 32768) ** 2, 0) / out.length)
    // Naive decimation would keep most of the 0.35 RMS as a 4 kHz alias
    expect(rms).toBeLessThan(0.005)
  })

  it('mixes channels to mono and reports the input level in dBFS per frame', () => {
    const { feed, posted } = loadProcessor(48000)
    feed(sine(48000, 440, 0.2, 0.1), 2)
    // RMS of a sine of amplitude 0.1 is 0.0707 = -23 dBFS
    for (const message of posted) expect(message.volume).toBeCloseTo(-23, 0)
    const silent = loadProcessor(48000)
    silent.feed(new Float32Array(4800))
    expect(silent.posted.every((message) => message.volume === -100)).toBe(true)
  })

  it('posts 20 ms frames as audio arrives, whatever the quantum boundaries', () => {
    const { feed, posted } = loadProcessor(48000)
    feed(new Float32Array(128 * 7))
    // 896 input samples at 48 kHz = 298 output samples: not a frame yet
    expect(posted).toHaveLength(0)
    feed(new Float32Array(128 * 1))
    expect(posted).toHaveLength(1)
  })
})
