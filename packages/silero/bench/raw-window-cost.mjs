// The Silero v5 model run directly on one runtime, in a fresh process (as a server starts):
//   node bench/raw-window-cost.mjs node|web [runs]
// Prints one JSON line: load ms (wall), CPU ms per 32 ms window over the first 500 windows (16 s
// of audio) and the median of runs of 500 once 2,000 windows (64 s) have run.
import { createRequire } from 'node:module'

const [runtime = 'node', runsArg = '5'] = process.argv.slice(2)
const RUNS = Number(runsArg)
const require = createRequire(import.meta.url)
const modelPath = require.resolve('@ricky0123/vad-web/dist/silero_vad_v5.onnx')
let ort
let options = {}
if (runtime === 'node') {
  ort = await import('onnxruntime-node')
  options = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' }
} else {
  // onnxruntime-web is not a dependency of @openmic/silero: it is found through vad-web's.
  const fromVadWeb = createRequire(require.resolve('@ricky0123/vad-web'))
  ort = await import(fromVadWeb.resolve('onnxruntime-web'))
  ort.env.wasm.numThreads = 1
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const started = performance.now()
const session = await ort.InferenceSession.create(modelPath, options)
const loadMs = performance.now() - started
const sr = new ort.Tensor('int64', BigInt64Array.of(16_000n), [])
let state = new ort.Tensor('float32', new Float32Array(256), [2, 1, 128])
const input = new Float32Array(576).map((_, i) => Math.sin(i / 5) * 0.1)
const windows = 500
const runs = []
for (let run = 0; run < 4 + RUNS; run++) {
  const before = process.cpuUsage()
  for (let i = 0; i < windows; i++) {
    const out = await session.run({ input: new ort.Tensor('float32', input, [1, 576]), state, sr })
    state = out.stateN
  }
  const used = process.cpuUsage(before)
  runs.push((used.user + used.system) / 1000 / windows)
}
await session.release()
console.log(JSON.stringify({ loadMs, first: runs[0], steady: median(runs.slice(4)) }))
