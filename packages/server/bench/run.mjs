// Runs the server benchmark: for each N, a server process and a separate client process on
// loopback. Prints StopSpeaking -> first audio p50/p90/p99, turns/s, server CPU (in % of a core, per
// turn, and per turn divided by the client process's: the client does the same work per turn for
// every server, so the ratio holds across machines and loads), event-loop delay p99 and memory per
// idle connection, for MicdropServer and for a thin reference ws server.
// With `--against <checkout>` (repeatable), more candidates in the same run, alternating with
// this build: another checkout of openmic (the previous release, say), or a checkout of Micdrop
// built from its public source outside this project (its `packages/server/dist`; see
// micdrop.mjs: with the same doubles as this build, and with `--micdrop-own-doubles` also with
// doubles on its own base classes); then also a side-by-side table with the ratios this build / each. `--runs R`
// repeats everything R times (the order of the candidates rotating) and prints medians and each
// run's values; heap per idle call is also measured on its own: `--idle M` idle calls connected
// (default 1000), GC'd heap growth / M.
// Usage: pnpm bench [N...] [--against <dir>]... [--runs R] [--idle M] [--no-reference]
//   [--micdrop-own-doubles]
//   (build first; default N = 100 200 500 1000)
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isMicdropCheckout } from './micdrop.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
/** Removes `--name value` from the arguments; returns the value. */
function option(name) {
  const at = args.indexOf(name)
  return at === -1 ? undefined : args.splice(at, 2)[1]
}
const against = []
for (let dir = option('--against'); dir !== undefined; dir = option('--against')) against.push(dir)
const RUNS = Number(option('--runs') ?? 1)
const IDLE_CALLS = Number(option('--idle') ?? 1000)
const withReference = !args.includes('--no-reference')
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

/** Starts a candidate's server process and a client with `n` idle calls; `measure` goes on. */
async function connect(n, variant, children, idleOnly = false) {
  const env = { ...process.env }
  if (variant.root) env.BENCH_ROOT = variant.root
  const serverArgs = idleOnly ? [...variant.serverArgs, '--idle'] : variant.serverArgs
  const server = fork(join(here, 'server.mjs'), serverArgs, {
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
  return {
    server,
    client,
    heapPerConn: (idle.heapUsed - before.heapUsed) / n / 1024,
    rssPerConn: (idle.rss - before.rss) / n / 1024,
  }
}

/** Runs `body` with the processes it starts, and ends them whatever happens. */
async function withChildren(body) {
  const children = []
  try {
    return await body(children)
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill()
  }
}

/**
 * Heap per idle call: `n` calls connected, no turn, GC'd heap growth / n (KB). The server process
 * puts no listener of its own on the calls (as an app that listens to none), so that what is
 * measured is the server's call alone.
 */
const measureIdle = (n, variant) =>
  withChildren(async (children) => (await connect(n, variant, children, true)).heapPerConn)

const measure = (n, variant) =>
  withChildren(async (children) => {
    const { server, client, heapPerConn, rssPerConn } = await connect(n, variant, children)
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
    const cpuPerTurnUs = (percent) => ((percent / 100) * WINDOW_MS * 1000) / clientWindow.turns
    return {
      serverP50: percentile(inServer, 50),
      serverP99: percentile(inServer, 99),
      loopMax: serverWindow.loopMaxMs,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      turnsPerSecond: clientWindow.turns / (WINDOW_MS / 1000),
      cpu: serverWindow.cpuPercent,
      cpuPerTurnUs: cpuPerTurnUs(serverWindow.cpuPercent),
      clientCpu: clientWindow.cpuPercent,
      clientCpuPerTurnUs: cpuPerTurnUs(clientWindow.cpuPercent),
      cpuVsClient: serverWindow.cpuPercent / clientWindow.cpuPercent,
      loopP99: serverWindow.loopP99Ms,
      heapPerConn,
      rssPerConn,
    }
  })

const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-')
const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b)
  return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)]
}

const ownDoubles = args.includes('--micdrop-own-doubles')
const others = against.flatMap((dir) =>
  isMicdropCheckout(dir)
    ? [
        { name: 'Micdrop', serverArgs: ['--micdrop', resolve(dir)] },
        ...(ownDoubles
          ? [
              {
                name: 'Micdrop, own doubles',
                serverArgs: ['--micdrop', resolve(dir), '--own-doubles'],
              },
            ]
          : []),
      ]
    : [{ name: dir, serverArgs: [], root: resolve(dir) }]
)
const candidates = [{ name: 'this build', serverArgs: [] }, ...others]
const variants = [
  ...candidates,
  ...(withReference ? [{ name: 'reference ws', serverArgs: ['--reference'] }] : []),
]

const rows = []
const idle = new Map(candidates.map((c) => [c, []]))
for (let run = 0; run < RUNS; run++) {
  // Rotate which candidate goes first.
  const order = [
    ...candidates.slice(run % candidates.length),
    ...candidates.slice(0, run % candidates.length),
    ...variants.slice(candidates.length),
  ]
  if (IDLE_CALLS > 0) {
    for (const variant of order.filter((v) => idle.has(v))) {
      const kb = await measureIdle(IDLE_CALLS, variant)
      idle.get(variant).push(kb)
      console.log(`idle ${IDLE_CALLS} calls ${variant.name}: heap ${f(kb, 2)} KB per call`)
    }
  }
  for (const n of Ns) {
    for (const variant of order) {
      const m = await measure(n, variant)
      rows.push({ n, variant, m })
      console.log(
        `N=${n} ${variant.name}: p50 ${f(m.p50)} ms, p90 ${f(m.p90)}, p99 ${f(m.p99)}, ` +
          `${f(m.turnsPerSecond, 0)} turns/s, in server p50 ${f(m.serverP50)} p99 ${f(m.serverP99)}, ` +
          `CPU ${f(m.cpu, 1)}% (${f(m.cpuPerTurnUs, 0)} µs/turn, ${f(m.cpuVsClient)}× the client's ` +
          `${f(m.clientCpu, 0)}%), loop delay p99 ${f(m.loopP99)} max ${f(m.loopMax)} ms, ` +
          `idle heap ${f(m.heapPerConn, 1)} KB + RSS ${f(m.rssPerConn, 1)} KB per connection`
      )
    }
  }
}

/** Medians over the runs of one N and variant. */
function summary(n, variant) {
  const runs = rows.filter((row) => row.n === n && row.variant === variant).map((row) => row.m)
  return Object.fromEntries(
    Object.keys(runs[0]).map((key) => [key, median(runs.map((m) => m[key]))])
  )
}

console.log(RUNS > 1 ? `\nmedians of ${RUNS} runs` : '')
console.log(
  '| N | server | p50 ms | p90 ms | p99 ms | in-server p50 / p99 ms | turns/s | server CPU % | CPU µs/turn | CPU / client CPU | loop delay p99 / max ms | heap KB/conn | RSS KB/conn |'
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
for (const n of Ns) {
  for (const variant of variants) {
    const m = summary(n, variant)
    console.log(
      `| ${n} | ${variant.name} | ${f(m.p50)} | ${f(m.p90)} | ${f(m.p99)} | ${f(m.serverP50)} / ${f(m.serverP99)} | ${f(m.turnsPerSecond, 0)} | ${f(m.cpu, 1)} | ${f(m.cpuPerTurnUs, 0)} | ${f(m.cpuVsClient)} | ${f(m.loopP99)} / ${f(m.loopMax)} | ${f(m.heapPerConn, 1)} | ${f(m.rssPerConn, 1)} |`
    )
  }
}

if (others.length > 0) {
  const values = (variant, n, key) =>
    rows.filter((row) => row.n === n && row.variant === variant).map((row) => row.m[key])
  const names = candidates.map((c) => c.name)
  const ratios = others.map((o) => `ratio to ${o.name}`)
  console.log(`\nthis build / ${others.map((o) => o.name).join(', ')}: medians of ${RUNS} run(s)`)
  console.log(`| measure | ${[...names, ...ratios].join(' | ')} | runs: ${names.join(' / ')} |`)
  console.log(`|---|${[...names, ...ratios].map(() => '---|').join('')}---|`)
  const line = (label, digits, perCandidate) => {
    const medians = perCandidate.map(median)
    const runs = perCandidate.map((list) => list.map((x) => f(x, digits)).join(' ')).join(' / ')
    const cells = [
      ...medians.map((x) => f(x, digits)),
      ...medians.slice(1).map((x) => f(medians[0] / x)),
    ]
    console.log(`| ${label} | ${cells.join(' | ')} | ${runs} |`)
  }
  if (IDLE_CALLS > 0) {
    line(
      `heap per idle call, ${IDLE_CALLS} calls (KB)`,
      2,
      candidates.map((c) => idle.get(c))
    )
  }
  for (const n of Ns) {
    for (const [key, label, digits] of [
      ['cpuVsClient', 'server CPU per turn / client CPU per turn', 2],
      ['cpuPerTurnUs', 'server CPU µs per turn', 0],
      ['clientCpuPerTurnUs', 'client CPU µs per turn', 0],
      ['turnsPerSecond', 'turns/s', 0],
      ['p50', 'p50 ms', 2],
      ['p99', 'p99 ms', 2],
    ]) {
      line(
        `N=${n} ${label}`,
        digits,
        candidates.map((c) => values(c, n, key))
      )
    }
  }
}
