// Several instances behind a load balancer, for real: redis-server, two demo server processes and
// HAProxy in front of them, all started here. A protocol client holds a call through the proxy
// while instances are restarted (SIGTERM: drain), crash (SIGKILL), and Redis crashes.
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { RedisConversationStore } from '@openmic/redis'
import {
  CHROMIUM_PATH,
  chromiumArgs,
  encodeWav,
  silencePcm,
  freePort,
  requireCommand,
  startProcess,
  startRedisServer,
  type TestProcess,
  type TestRedisServer,
} from '@openmic/testing'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { chromium } from 'playwright-core'
import { WebSocket } from 'ws'
import { speakPcm } from './speech.js'

const demoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const TOKEN = 'demo' // the page's default token

interface Instance {
  name: string
  port: number
  process: TestProcess
}

let redis: TestRedisServer
let proxy: TestProcess
let proxyPort: number
let workDir: string
const instances: Instance[] = []
let store: RedisConversationStore

async function startInstance(name: string, port: number): Promise<Instance> {
  const child = startProcess(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: demoDir,
    env: {
      ...process.env,
      OPENMIC_HOST: '127.0.0.1',
      PORT: String(port),
      OPENMIC_TOKEN: TOKEN,
      OPENMIC_AGENT: 'mock',
      OPENMIC_STT: 'mock',
      OPENMIC_TTS: 'mock',
      OPENAI_API_KEY: '',
      MISTRAL_API_KEY: '',
      REDIS_URL: redis.url,
      OPENMIC_DRAIN_DEADLINE_MS: '5000',
    },
  })
  try {
    await child.waitForOutput('openmic demo: open', 30_000)
  } catch (error) {
    await child.stop('SIGKILL')
    throw error
  }
  return { name, port, process: child }
}

/** Both instances up (starting again the one a test stopped) and seen healthy by HAProxy. */
async function bothUp() {
  for (const [index, instance] of instances.entries()) {
    if (instance.process.child.exitCode === null && instance.process.child.signalCode === null) {
      continue
    }
    instances[index] = await startInstance(instance.name, instance.port)
  }
  await waitForBackends(2)
}

/** Waits until HAProxy's stats say `count` servers are UP. */
async function waitForBackends(count: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const csv = await fetch(`http://127.0.0.1:${proxyPort}/haproxy-stats;csv`)
      .then((response) => response.text())
      .catch(() => '')
    const up = csv.split('\n').filter((line) => /^demo,(a|b),/.test(line) && line.includes(',UP,'))
    if (up.length === count) return
    if (Date.now() > deadline) throw new Error(`HAProxy: ${up.length} servers up, not ${count}`)
    await sleep(100)
  }
}

function haproxyConfig(port: number, backends: Instance[]) {
  return `
defaults
  mode http
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  retries 3
  option redispatch

frontend calls
  bind 127.0.0.1:${port}
  stats enable
  stats uri /haproxy-stats
  default_backend demo

backend demo
  balance leastconn
  option httpchk GET /config.json
  http-response set-header X-Served-By %[srv_name]
${backends
  .map((b) => `  server ${b.name} 127.0.0.1:${b.port} check inter 200ms fall 1 rise 1`)
  .join('\n')}
`
}

beforeAll(async () => {
  const haproxy = requireCommand('haproxy', 'haproxy')
  redis = await startRedisServer()
  store = new RedisConversationStore({ redis: redis.url })
  const [portA, portB] = [await freePort(), await freePort()]
  instances.push(await startInstance('a', portA), await startInstance('b', portB))
  proxyPort = await freePort()
  workDir = mkdtempSync(join(tmpdir(), 'openmic-haproxy-'))
  const config = join(workDir, 'haproxy.cfg')
  writeFileSync(config, haproxyConfig(proxyPort, instances))
  proxy = startProcess(haproxy, ['-f', config, '-db'])
  await waitForBackends(2)
}, 90_000)

afterAll(async () => {
  await store?.close()
  await Promise.all([proxy?.stop('SIGKILL'), ...instances.map((i) => i.process.stop('SIGKILL'))])
  await redis?.stop()
  if (workDir) rmSync(workDir, { recursive: true, force: true })
})

const calls: ProtocolCall[] = []
beforeEach(bothUp, 60_000)
afterEach(() => {
  for (const call of calls.splice(0)) call.hangUp()
})

/**
 * A client speaking the protocol, as `@openmic/client` does: params then `Hello` first on every
 * socket, and a reconnection (same params) after a recoverable close such as 1012 or a dropped
 * connection.
 */
class ProtocolCall {
  /** The instance that served each socket, in order. */
  readonly servedBy: string[] = []
  /** Every assistant message heard, over all sockets. */
  readonly answers: string[] = []
  /** For each answer: the socket (index in `servedBy`) it was heard on. */
  readonly answerSockets: number[] = []
  readonly closes: number[] = []
  frames: string[] = []
  private socket?: WebSocket
  private stopped = false
  private opened!: Promise<void>

  constructor(readonly conversationId: string) {
    calls.push(this)
    this.connect()
  }

  private connect() {
    const socket = new WebSocket(`ws://127.0.0.1:${proxyPort}/call`)
    this.socket = socket
    this.frames = []
    this.opened = new Promise((resolve, reject) => {
      socket.once('upgrade', (response) => {
        this.servedBy.push(String(response.headers['x-served-by']))
      })
      socket.once('open', () => {
        socket.send(JSON.stringify({ token: TOKEN, conversationId: this.conversationId }))
        // As @openmic/client: each answer's Message once heard (or cut), captions meanwhile
        socket.send('Hello {"captions":true}')
        resolve()
      })
      socket.once('error', reject)
    })
    this.opened.catch(() => {})
    socket.on('message', (data: Buffer, isBinary) => {
      if (isBinary) return void this.frames.push('audio')
      const text = data.toString()
      const [name] = text.split(' ', 1)
      if (name === 'Message') {
        const item = JSON.parse(text.slice('Message '.length)) as { role: string; content: string }
        this.frames.push(`Message:${item.role}`)
        if (item.role === 'assistant') {
          this.answers.push(item.content)
          this.answerSockets.push(this.servedBy.length - 1)
        }
      } else if (name !== 'Caption') this.frames.push(name!)
    })
    socket.on('close', (code) => {
      this.closes.push(code)
      if (this.stopped || code === 1000 || code >= 4000) return
      setTimeout(() => this.connect(), 200) // the client's reconnection
    })
  }

  async utterance() {
    await this.opened
    this.socket!.send('StartSpeaking')
    this.socket!.send(Buffer.alloc(3200, 1), { binary: true })
    this.socket!.send('StopSpeaking')
  }

  async until(predicate: () => boolean, what: string, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs
    while (!predicate()) {
      if (Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${what}; answers: ${this.answers.join(' | ')}`)
      }
      await sleep(10)
    }
  }

  /** Waits for the answer to turn `turn` (`Turn <n>: ...`). */
  untilAnswer(turn: number) {
    return this.until(() => this.answers.some((a) => a.startsWith(`Turn ${turn}:`)), `Turn ${turn}`)
  }

  hangUp() {
    this.stopped = true
    this.socket?.close(1000)
  }
}

/** The stored conversation: greeting then one user message and one answer per turn, in order. */
async function expectWholeConversation(conversationId: string, turns: number) {
  const items = (await store.load(conversationId)).flatMap((record) =>
    record.type === 'item' ? [record.item] : []
  )
  const expected = ['assistant']
  for (let turn = 1; turn <= turns; turn++) expected.push('user', 'assistant')
  expect(items.map((item) => item.role)).toEqual(expected)
  const answers = items.filter((item) => item.role === 'assistant').map((item) => item.content)
  answers.forEach((answer, turn) => expect(answer).toMatch(new RegExp(`^Turn ${turn}:`)))
}

function instanceNamed(name: string): Instance {
  return instances.find((instance) => instance.name === name)!
}

describe('calls behind HAProxy, on two instances sharing Redis', () => {
  it('SIGTERM mid-answer: the answer ends, the call moves to the other instance and goes on', async () => {
    const call = new ProtocolCall(randomUUID())
    await call.untilAnswer(0)
    await call.utterance()
    await call.untilAnswer(1)
    await call.utterance()
    // The second answer is being spoken: its user message came, then audio.
    await call.until(() => {
      const users = call.frames.flatMap((frame, index) => (frame === 'Message:user' ? [index] : []))
      return users.length === 2 && call.frames.slice(users[1]).includes('audio')
    }, 'the second answer')
    expect(call.answers).toHaveLength(2)
    const serving = instanceNamed(call.servedBy[0]!)
    serving.process.child.kill('SIGTERM')
    await call.until(() => call.servedBy.length === 2, 'the reconnection')
    expect(call.closes).toEqual([1012])
    expect(call.servedBy[1]).not.toBe(serving.name)
    await call.untilAnswer(2) // finished before the close
    await call.until(() => call.frames.includes('SkipAnswer'), 'the silent resume')
    await call.utterance()
    await call.untilAnswer(3)
    // Each answer heard once, in order; the last one saw every earlier item.
    expect(call.answers.map((a) => a.split(':')[0])).toEqual([
      'Turn 0',
      'Turn 1',
      'Turn 2',
      'Turn 3',
    ])
    await expectWholeConversation(call.conversationId, 3)
    expect(await serving.process.exited).toBe(0)
  }, 60_000)

  it('redis-server killed and restarted mid-call: the call goes on and the store catches up', async () => {
    const call = new ProtocolCall(randomUUID())
    await call.untilAnswer(0)
    await redis.kill()
    await call.utterance()
    await call.untilAnswer(1)
    const serving = instanceNamed(call.servedBy[0]!)
    await serving.process.waitForOutput('Conversation store append failed')
    await redis.restart()
    await call.utterance()
    await call.untilAnswer(2)
    await sleep(300) // the answer's audio is out
    // The other instance carries on from what the store caught up with.
    serving.process.child.kill('SIGTERM')
    await call.until(() => call.servedBy.length === 2, 'the reconnection')
    await call.until(() => call.frames.includes('SkipAnswer'), 'the silent resume')
    await call.utterance()
    await call.untilAnswer(3)
    expect(call.answers.map((a) => a.split(':')[0])).toEqual([
      'Turn 0',
      'Turn 1',
      'Turn 2',
      'Turn 3',
    ])
    await expectWholeConversation(call.conversationId, 3)
  }, 60_000)

  it('SIGKILL of the instance: the client reconnects to the other one, which knows the call', async () => {
    const call = new ProtocolCall(randomUUID())
    await call.untilAnswer(0)
    await call.utterance()
    await call.untilAnswer(1)
    await sleep(500) // the answer's audio is out
    const serving = instanceNamed(call.servedBy[0]!)
    serving.process.child.kill('SIGKILL')
    await call.until(() => call.servedBy.length === 2, 'the reconnection')
    expect(call.servedBy[1]).not.toBe(serving.name)
    await call.until(() => call.frames.includes('SkipAnswer'), 'the silent resume')
    await call.utterance()
    await call.untilAnswer(2)
    expect(call.answers.map((a) => a.split(':')[0])).toEqual(['Turn 0', 'Turn 1', 'Turn 2'])
    await expectWholeConversation(call.conversationId, 2)
  }, 60_000)
})

/** The instance holding `count` open connections (the call's WebSocket), from HAProxy's stats. */
async function instanceWithCall(): Promise<Instance> {
  const deadline = Date.now() + 5000
  for (;;) {
    const csv = await fetch(`http://127.0.0.1:${proxyPort}/haproxy-stats;csv`).then((r) => r.text())
    const row = csv
      .split('\n')
      .map((line) => line.split(','))
      .find((fields) => fields[0] === 'demo' && /^(a|b)$/.test(fields[1]!) && fields[4] === '1')
    if (row) return instanceNamed(row[1]!)
    if (Date.now() > deadline) throw new Error(`No instance holds the call:\n${csv}`)
    await sleep(100)
  }
}

describe('the demo page (Chromium) behind HAProxy', () => {
  it('SIGTERM of the instance: the page reconnects to the other one and the call goes on', async () => {
    const artifacts = join(demoDir, '.artifacts')
    mkdirSync(artifacts, { recursive: true })
    execFileSync(process.execPath, [join(demoDir, 'scripts', 'build-web.mjs')], { stdio: 'ignore' })
    const wav = join(artifacts, 'two-turns.wav')
    writeFileSync(
      wav,
      encodeWav(
        Buffer.concat([
          silencePcm(2.5),
          await speakPcm('Hello there, how are you?'),
          silencePcm(8),
          await speakPcm('Are you still there?'),
          silencePcm(10),
        ])
      )
    )
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: chromiumArgs({ fakeAudioFile: wav, loop: false }),
    })
    try {
      const page = await browser.newPage()
      await page.goto(`http://127.0.0.1:${proxyPort}/`)
      await page.getByTestId('start').click()
      const answers = page.getByTestId('message-assistant')
      await answers.filter({ hasText: /Turn 1:/ }).waitFor({ timeout: 20_000 })
      const serving = await instanceWithCall()
      serving.process.child.kill('SIGTERM')
      await answers.filter({ hasText: /Turn 2:/ }).waitFor({ timeout: 25_000 })
      expect(await serving.process.exited).toBe(0)
      const texts = await answers.allTextContents()
      // Each answer shown once: the call went on, with its history, on the other instance.
      expect(texts.map((text) => /Turn \d+/.exec(text)?.[0])).toEqual([
        'Turn 0',
        'Turn 1',
        'Turn 2',
      ])
    } finally {
      await browser.close()
    }
  }, 90_000)
})

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
