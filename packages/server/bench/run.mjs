// Runs the server benchmark: for each N, a server process and a separate client process on
// loopback. Prints StopSpeaking -> first audio p50/p90/p99, turns/s, server CPU (in % of a core and
// per turn), event-loop delay p99 and memory per idle connection, for MicdropServer and for a thin
// reference ws server; with `--against <checkout>`, for that checkout's built MicdropServer too
// (the previous release, say), in the same run.
// Usage: pnpm bench [N...] [--against <dir>]   (build first; default N = 100 200 500 1000)
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const againstAt = args.indexOf('--against')
const against = againstAt === -1 ? undefined : args.splice(againstAt, 2)[1]
const sizes = args.map(Number).filter(Boolean)
const Ns = sizes.length > 0 ? sizes : [100, 200, 500, 1000]
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 2000)
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 8000)

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function nextMessage(child, type, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', listener)
      reject(
        new Error(`no '${type}' message from ${child.spawnargs.join(' ')} within ${timeoutMs} ms`)
      )
    }, timeoutMs)
    const listener = (message) => {
      if (message.type !== type) return
      clearTimeout(timer)
      child.off('message', listener)
      resolve(message)
    }
    child.on('message', listener)
  })
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

async function measure(n, reference, root) {
  const children = []
  try {
    return await runOnce(n, reference, root, children)
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill()
  }
}

async function runOnce(n, reference, root, children) {
  const env = { ...process.env }
  if (root) env.BENCH_ROOT = root
  const server = fork(join(here, 'server.mjs'), reference ? ['--reference'] : [], {
    env,
    execArgv: ['--expose-gc', ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
  })
  children.push(server)
  const { port } = await nextMessage(server, 'ready')

  server.send({ type: 'memory' })
  const before = await nextMessage(server, 'memory')
  const client = fork(join(here, 'client.mjs'), [String(port), String(n)])
  children.push(client)
  await nextMessage(client, 'connected')

  await sleep(300)
  server.send({ type: 'memory' })
  const idle = await nextMessage(server, 'memory')

  client.send({ type: 'start' })
  await sleep(WARMUP_MS)
  server.send({ type: 'window-start' })
  client.send({ type: 'window-start' })
  await sleep(WINDOW_MS)
  server.send({ type: 'window-end' })
  client.send({ type: 'window-end' })
  const [serverWindow, clientWindow] = await Promise.all([
    nextMessage(server, 'window'),
    nextMessage(client, 'window'),
  ])
  if (client.exitCode === null) await once(client, 'exit')
  server.send({ type: 'exit' })
  await Promise.race([once(server, 'exit'), sleep(5000)])
  const sorted = clientWindow.latencies.sort((a, b) => a - b)
  const inServer = (serverWindow.endToEnd ?? []).sort((a, b) => a - b)
  return {
    serverP50: percentile(inServer, 50),
    serverP99: percentile(inServer, 99),
    loopMax: serverWindow.loopMaxMs,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    turnsPerSecond: clientWindow.turns / (WINDOW_MS / 1000),
    cpu: serverWindow.cpuPercent,
    cpuPerTurnUs: ((serverWindow.cpuPercent / 100) * WINDOW_MS * 1000) / clientWindow.turns,
    clientCpu: clientWindow.cpuPercent,
    loopP99: serverWindow.loopP99Ms,
    heapPerConn: (idle.heapUsed - before.heapUsed) / n / 1024,
    rssPerConn: (idle.rss - before.rss) / n / 1024,
  }
}

const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-')
const variants = [
  { name: 'this build', reference: false },
  ...(against ? [{ name: against, reference: false, root: against }] : []),
  { name: 'reference ws', reference: true },
]
const rows = []
for (const n of Ns) {
  for (const variant of variants) {
    const m = await measure(n, variant.reference, variant.root)
    rows.push({ n, name: variant.name, m })
    console.log(
      `N=${n} ${variant.name}: p50 ${f(m.p50)} ms, p90 ${f(m.p90)}, p99 ${f(m.p99)}, ` +
        `${f(m.turnsPerSecond, 0)} turns/s, in server p50 ${f(m.serverP50)} p99 ${f(m.serverP99)}, ` +
        `CPU ${f(m.cpu, 1)}% (${f(m.cpuPerTurnUs, 0)} µs/turn; client process ${f(m.clientCpu, 0)}%), ` +
        `loop delay p99 ${f(m.loopP99)} max ${f(m.loopMax)} ms, ` +
        `idle heap ${f(m.heapPerConn, 1)} KB + RSS ${f(m.rssPerConn, 1)} KB per connection`
    )
  }
}

console.log(
  '\n| N | server | p50 ms | p90 ms | p99 ms | in-server p50 / p99 ms | turns/s | server CPU % | CPU µs/turn | loop delay p99 / max ms | heap KB/conn | RSS KB/conn |'
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|')
for (const { n, name, m } of rows) {
  console.log(
    `| ${n} | ${name} | ${f(m.p50)} | ${f(m.p90)} | ${f(m.p99)} | ${f(m.serverP50)} / ${f(m.serverP99)} | ${f(m.turnsPerSecond, 0)} | ${f(m.cpu, 1)} | ${f(m.cpuPerTurnUs, 0)} | ${f(m.loopP99)} / ${f(m.loopMax)} | ${f(m.heapPerConn, 1)} | ${f(m.rssPerConn, 1)} |`
  )
}
