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
  for (let i = 0; i < 1000; i++) processor.process([[block]]) // warm-up (JIT)
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
    const latencies = await page.evaluate(
      (rounds) => window.openmic.measureBargeIns(rounds, 60000),
      rounds
    )
    const context = await page.evaluate(() => {
      const audio = (window.openmic.client.speaker as { audioContext?: AudioContext }).audioContext!
      return { baseLatency: audio.baseLatency, outputLatency: audio.outputLatency }
    })
    const s = stats(latencies)
    console.log(
      `barge-in in Chromium (confirmed speech → speaker output silent), ${s.n} rounds: median ${s.median.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, min ${s.min.toFixed(1)} ms, max ${s.max.toFixed(1)} ms (AudioContext baseLatency ${(context.baseLatency * 1000).toFixed(1)} ms, outputLatency ${(context.outputLatency * 1000).toFixed(1)} ms)`
    )
    await page.evaluate(() => window.openmic.stop())
  } finally {
    await Promise.all([browser.close(), site.close(), server.close()])
  }
}

for (const rate of [48000, 44100]) worklet(rate)
await bargeIn(40)
