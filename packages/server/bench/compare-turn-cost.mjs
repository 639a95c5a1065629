// turn-cost.mjs for this build and another built checkout side by side, in one run: the two
// alternate, RUNS times each (each in a fresh process), and the medians are printed together. The
// other checkout may be Micdrop's (built from its public source, see micdrop.mjs): it has no
// latency figures, CPU and heap only.
// Run: node bench/compare-turn-cost.mjs <other checkout root> [runs = 3]
import { execFileSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isMicdropCheckout } from './micdrop.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const [against, runsArg] = process.argv.slice(2)
if (!against) {
  console.error('usage: node bench/compare-turn-cost.mjs <other checkout root> [runs]')
  process.exit(2)
}
const RUNS = Number(runsArg ?? 3)

/** The numbers of one turn-cost.mjs run: fast-pace end-to-end p50/p90, CPU and heap per turn. */
function runOnce(root) {
  const micdrop = root !== undefined && isMicdropCheckout(root)
  const env = { ...process.env, BENCH_ROOT: root ?? '' }
  if (!root || micdrop) delete env.BENCH_ROOT
  const args = [join(here, 'turn-cost.mjs'), ...(micdrop ? ['--micdrop', root] : [])]
  const out = execFileSync(process.execPath, args, { env }).toString()
  const fast = out.slice(out.indexOf('fast'))
  const paced = out.slice(out.indexOf('paced'), out.indexOf('fast'))
  const number = (text, pattern) => Number(pattern.exec(text)?.[1])
  return {
    slowP50: number(out, /endToEndMs p50 ([\d.]+)/),
    fastP50: number(fast, /endToEndMs p50 ([\d.]+)/),
    fastP90: number(fast, /endToEndMs p50 [\d.]+ p90 ([\d.]+)/),
    cpuUs: number(fast, /CPU ([\d.]+) µs\/turn/),
    pacedCpuUs: number(paced, /CPU ([\d.]+) µs\/turn/),
    coldCpuUs: number(out.slice(out.indexOf('cold')), /CPU ([\d.]+) µs\/turn/),
    heapKB: number(out, /heap allocated: ([\d.]+) KB\/turn/),
  }
}

const results = { this: [], other: [] }
for (let run = 0; run < RUNS; run++) {
  results.this.push(runOnce(undefined))
  results.other.push(runOnce(resolve(against)))
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const column = (rows, key) => median(rows.map((row) => row[key]))
const f = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-')
console.log(`medians of ${RUNS} runs each, alternated; this build / ${against}`)
console.log('| measure | this build | other | ratio | runs: this build | runs: other |')
console.log('|---|---|---|---|---|---|')
for (const [key, label] of [
  ['slowP50', 'slow pace: StopSpeaking → first audio p50 ms'],
  ['fastP50', 'back to back: StopSpeaking → first audio p50 ms'],
  ['fastP90', 'back to back: p90 ms'],
  ['cpuUs', 'CPU µs per turn'],
  ['pacedCpuUs', 'paced (a turn every 5 ms): CPU µs per turn'],
  ['coldCpuUs', 'cold (caches flushed before each turn): CPU µs per turn'],
  ['heapKB', 'heap allocated KB per turn'],
]) {
  const a = column(results.this, key)
  const b = column(results.other, key)
  const runs = (rows) => rows.map((row) => f(row[key])).join(' ')
  console.log(
    `| ${label} | ${f(a)} | ${f(b)} | ${f(a / b)} | ${runs(results.this)} | ${runs(results.other)} |`
  )
}
