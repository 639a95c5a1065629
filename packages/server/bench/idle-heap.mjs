// Heap per idle call, in one process, without sockets: N calls (default 5000) on in-memory sockets
// with the zero-latency doubles, GC'd heap growth / N. Deterministic enough to compare two builds
// or this build with Micdrop's server (`--micdrop <checkout>`, see micdrop.mjs) from one run to the
// next; run.mjs measures the same over real sockets. `SNAP=<file>` also writes a heap snapshot.
// Run: node --expose-gc bench/idle-heap.mjs [--micdrop <checkout>]
import { writeHeapSnapshot } from 'node:v8'
import { callStarter, MemorySocket } from './calls.mjs'

const N = Number(process.env.N ?? 5000)
const micdropAt = process.argv.indexOf('--micdrop')
const startCall = await callStarter(micdropAt === -1 ? undefined : process.argv[micdropAt + 1])

const gc = () => {
  for (let i = 0; i < 3; i++) global.gc()
}
const calls = []
await new Promise((resolve) => setTimeout(resolve, 50))
gc()
const before = process.memoryUsage().heapUsed
for (let i = 0; i < N; i++) {
  const socket = new MemorySocket()
  calls.push([socket, startCall(socket)])
}
await new Promise((resolve) => setTimeout(resolve, 200)) // openings sent, timers settled
gc()
console.log(
  `heap per idle call: ${((process.memoryUsage().heapUsed - before) / N / 1024).toFixed(2)} KB`
)
if (process.env.SNAP) console.log(`heap snapshot: ${writeHeapSnapshot(process.env.SNAP)}`)
