// Client benchmarks: the capture worklet's cost (Node) and barge-in latency (Chromium).
// Prints medians and p99; asserts nothing.
import { runInNewContext } from 'node:vm'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CAPTURE_WORKLET_SOURCE } from '../src/audio/capture-worklet.js'
import { startCall } from '../test/browser/call.js'
import { hasChromium, launchBrowser, packageDir, servePage } from '../test/browser/harness.js'
import { startTestServer } from '../test/browser/micdrop-server.js'
import { wavFile } from '../test/browser/wav.js'

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return { median: at(0.5), p99: at(0.99), min: sorted[0]!, max: sorted.at(-1)!, n: values.length }
}

function worklet(rate: number) {
  let Processor: any
  runInNewContext(CAPTURE_WORKLET_SOURCE, {
    AudioWorkletProcessor: class {
      port = { postMessage() {} }
    },
    sampleRate: rate,
    registerProcessor: (_: string, processor: unknown) => (Processor = processor),
    Float32Array,
    Int16Array,
    Math,
  })
  const processor = new Processor({ processorOptions: { targetRate: 16000, frameSamples: 320 } })
  const block = Float32Array.from({ length: 128 }, (_, i) => Math.sin(i / 10) * 0.3)
  const quanta = Math.round((rate * 10) / 128) // 10 s of audio
  const perQuantum: number[] = []
  const start = performance.now()
  for (let i = 0; i < quanta; i++) {
    const t = performance.now()
    processor.process([[block]])
    perQuantum.push((performance.now() - t) * 1000)
  }
  const seconds = (performance.now() - start) / 1000
  const q = stats(perQuantum)
  const budget = (128 / rate) * 1e6
  console.log(
    `capture worklet ${rate} Hz → 16 kHz: ${(10 / seconds).toFixed(0)}x real time; per 128-sample quantum median ${q.median.toFixed(1)} µs, p99 ${q.p99.toFixed(1)} µs (budget ${budget.toFixed(0)} µs, p99 uses ${((q.p99 / budget) * 100).toFixed(1)} %)`
  )
}

async function bargeIn(rounds: number) {
  if (!hasChromium) return console.log('barge-in: skipped (no /usr/bin/chromium)')
  // A silent microphone: speech is driven through the VAD so each round is quick
  const dir = join(packageDir, '.artifacts', 'bench')
  mkdirSync(dir, { recursive: true })
  const silent = join(dir, 'silence.wav')
  writeFileSync(silent, wavFile(Buffer.alloc(32000), 16000))
  const [site, browser, server] = await Promise.all([
    servePage(),
    launchBrowser(silent),
    startTestServer({
      token: 't',
      firstMessage: 'Hi',
      msPerChar: 10,
      transcript: 'x',
      answer: 'y',
    }),
  ])
  try {
    const { page } = await startCall(browser, site.url, server, { token: 't' })
    const result = await page.evaluate(async (rounds) => {
      const client = (window as any).openmic.client
      const wait = (ms: number) => new Promise((done) => setTimeout(done, ms))
      const tone = Int16Array.from({ length: 16000 }, (_, i) => 10000 * Math.sin(i / 5))
      const latencies: number[] = []
      for (let round = 0; round < rounds; round++) {
        client.speaker.playAudio(tone)
        await wait(250)
        if (client.speaker.getVolume() < -40) continue
        const start = performance.now()
        // 100 ms of loud audio: the volume VAD starts and confirms speech → barge-in
        client.micRecorder.vad.process(-20, 100)
        while (client.speaker.getVolume() > -90) await new Promise((done) => setTimeout(done, 0))
        latencies.push(performance.now() - start)
        client.micRecorder.vad.process(-100, 1000)
        await wait(50)
      }
      const context = client.speaker.audioContext
      return { latencies, baseLatency: context.baseLatency, outputLatency: context.outputLatency }
    }, rounds)
    const s = stats(result.latencies)
    console.log(
      `barge-in in Chromium (confirmed speech → speaker output silent), ${s.n} rounds: median ${s.median.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, min ${s.min.toFixed(1)} ms, max ${s.max.toFixed(1)} ms (AudioContext baseLatency ${(result.baseLatency * 1000).toFixed(1)} ms, outputLatency ${(result.outputLatency * 1000).toFixed(1)} ms)`
    )
    await page.evaluate(() => (window as any).openmic.stop())
  } finally {
    await Promise.all([browser.close(), site.close(), server.close()])
  }
}

for (const rate of [48000, 44100]) worklet(rate)
await bargeIn(40)
