// Runs the server benchmark: for each N, a server process and a separate client process on
// loopback. Prints StopSpeaking -> first audio p50/p90/p99, turns/s, server CPU, event-loop delay
// p99 and memory per idle connection, for MicdropServer and for a thin reference ws server.
// Usage: pnpm bench [N...]   (build first; default N = 100 200 500 1000)
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const sizes = process.argv.slice(2).map(Number).filter(Boolean)
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

async function measure(n, reference) {
  const children = []
  try {
    return await runOnce(n, reference, children)
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill()
  }
}

async function runOnce(n, reference, children) {
  const server = fork(join(here, 'server.mjs'), reference ? ['--reference'] : [], {
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
    clientCpu: clientWindow.cpuPercent,
    loopP99: serverWindow.loopP99Ms,
    heapPerConn: (idle.heapUsed - before.heapUsed) / n / 1024,
    rssPerConn: (idle.rss - before.rss) / n / 1024,
  }
}

const rows = []
for (const n of Ns) {
  const micdrop = await measure(n, false)
  const reference = await measure(n, true)
  rows.push({ n, micdrop, reference })
  const f = (x, d = 2) => x.toFixed(d)
  console.log(
    `N=${n}: p50 ${f(micdrop.p50)} ms (ref ${f(reference.p50)}), p90 ${f(micdrop.p90)} (ref ${f(reference.p90)}), ` +
      `p99 ${f(micdrop.p99)} (ref ${f(reference.p99)}), ${f(micdrop.turnsPerSecond, 0)} turns/s, ` +
      `in server p50 ${f(micdrop.serverP50)} p99 ${f(micdrop.serverP99)}, ` +
      `CPU ${f(micdrop.cpu, 1)}% (ref ${f(reference.cpu, 1)}%; client process ${f(micdrop.clientCpu, 0)}%), ` +
      `loop delay p99 ${f(micdrop.loopP99)} max ${f(micdrop.loopMax)} ms (ref ${f(reference.loopP99)} / ${f(reference.loopMax)}), ` +
      `idle heap ${f(micdrop.heapPerConn, 1)} KB (ref ${f(reference.heapPerConn, 1)}) + RSS ${f(micdrop.rssPerConn, 1)} KB (ref ${f(reference.rssPerConn, 1)}) per connection`
  )
}

const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-')
console.log(
  '\n| N | p50 ms (ref) | p90 ms (ref) | p99 ms (ref) | in-server p50 / p99 ms | turns/s | server CPU % (ref) | loop delay p99 / max ms (ref) | heap KB/conn (ref) | RSS KB/conn (ref) |'
)
console.log('|---|---|---|---|---|---|---|---|---|---|')
for (const { n, micdrop: m, reference: r } of rows) {
  console.log(
    `| ${n} | ${f(m.p50)} (${f(r.p50)}) | ${f(m.p90)} (${f(r.p90)}) | ${f(m.p99)} (${f(r.p99)}) | ${f(m.serverP50)} / ${f(m.serverP99)} | ${f(m.turnsPerSecond, 0)} | ${f(m.cpu, 1)} (${f(r.cpu, 1)}) | ${f(m.loopP99)} / ${f(m.loopMax)} (${f(r.loopP99)} / ${f(r.loopMax)}) | ${f(m.heapPerConn, 1)} (${f(r.heapPerConn, 1)}) | ${f(m.rssPerConn, 1)} (${f(r.rssPerConn, 1)}) |`
  )
}
