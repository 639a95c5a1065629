import { Logger, MockAgent, MockSTT, MockTTS, type MicdropCallSummary } from '@openmic/core'
import { describe, expect, it, vi } from 'vitest'
import { MicdropServer, type MicdropServerOptions } from '../src/index.js'
import { closeAfterEach, TestClient, startMockCall, startServer } from './harness.js'

const cleanup = closeAfterEach()

/** A call on fresh doubles (overridden by `extra`), once its opening was sent. */
async function call(extra: Partial<MicdropServerOptions> = {}) {
  const { client, server } = await startMockCall(cleanup, () => extra)
  await client.waitFor((c) => c.count('SkipAnswer') + c.count('Message:assistant') > 0)
  return { client, server }
}

function listeners(emitter: {
  eventNames(): (string | symbol)[]
  listenerCount(e: string | symbol): number
}) {
  return emitter.eventNames().reduce((sum, name) => sum + emitter.listenerCount(name), 0)
}

describe('end of call', () => {
  it('emits End with the conversation and duration, and destroys agent, STT and TTS', async () => {
    let onEnd: MicdropCallSummary | undefined
    const { client, server } = await call({ onEnd: (summary) => (onEnd = summary) })
    const ended = new Promise<MicdropCallSummary>((resolve) => server.on('End', resolve))
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    client.close()
    const summary = await ended
    expect(summary.conversation.map((item) => item.role)).toEqual(['system', 'user', 'assistant'])
    expect(summary.duration).toBeGreaterThan(0.04)
    expect(summary.duration).toBeLessThan(5)
    expect(onEnd).toBe(summary)
    expect(listeners(server.agent)).toBe(0)
    expect(listeners(server.stt)).toBe(0)
    expect(listeners(server.tts)).toBe(0)
    expect(listeners(server)).toBe(0)
    expect(server.socket.listenerCount('message')).toBe(0)
  })

  it('a client leaving mid-answer leaves no timer running and nothing is sent', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    const before = timers()
    const { client, server } = await call({
      agent: new MockAgent({
        answers: ['A long answer that streams slowly word by word.'],
        wordDelayMs: 20,
      }),
      stt: new MockSTT({ utterances: ['One', { transcripts: 'Two', delayMs: 5000 }] }),
      tts: new MockTTS({ chunkDelayMs: 20, chunkMs: 20 }),
      transcriptTimeoutMs: 50_000,
    })
    client.utterance()
    await client.waitFor((c) => c.count('audio') >= 1)
    client.utterance() // barge-in: the STT now waits 5 s, the server waits for its transcript
    await new Promise((resolve) => setTimeout(resolve, 30))
    // The STT's 5 s delay and the server's transcript timeout are pending.
    const during = timers()
    const send = vi.spyOn(server.socket, 'send')
    const ended = new Promise((resolve) => server.on('End', resolve))
    client.socket.terminate()
    await ended
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(timers()).toBeLessThanOrEqual(Math.min(before, during - 2))
    expect(send).not.toHaveBeenCalled()
    // The barge-in kept at most what was heard of the answer, flagged as interrupted.
    const [system, user, ...rest] = server.agent.conversation
    expect([system?.role, user?.role]).toEqual(['system', 'user'])
    for (const item of rest) expect(item).toMatchObject({ metadata: { interrupted: true } })
    expect(rest.length).toBeLessThanOrEqual(1)
  })

  it('closes with 1000 on close() and with 1009 for a frame over the limit', async () => {
    const first = await call()
    first.server.close()
    await first.client.waitForClose()
    expect(first.client.closeCode).toBe(1000)
    await cleanup.stop?.()

    const second = await call({ maxFrameBytes: 4000 })
    second.client.send('StartSpeaking')
    second.client.audio(3200)
    second.client.audio(8000)
    await second.client.waitForClose()
    expect(second.client.closeCode).toBe(1009)
    expect((second.server.stt as MockSTT).audioBytes).toBe(3200)
  })

  it('the default limit accepts 1 s audio chunks and rejects 100 KB frames', async () => {
    const { client } = await call()
    client.send('StartSpeaking')
    client.audio(32000)
    client.send('StopSpeaking')
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    client.socket.send(Buffer.alloc(100_000))
    await client.waitForClose()
    expect(client.closeCode).toBe(1009)
  })

  it('a socket already closed when the server is created ends the call at once', async () => {
    let ended = false
    const server = await startServer((socket) => {
      socket.close()
      const micdrop = new MicdropServer(socket, {
        agent: new MockAgent(),
        stt: new MockSTT(),
        tts: new MockTTS(),
      })
      micdrop.on('End', () => (ended = true))
    })
    cleanup.stop = server.close
    const client = await TestClient.connect(server.url)
    await client.waitForClose()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(ended).toBe(true)
  })
})

describe('internal errors', () => {
  it('closes with 1011, without crashing, when opening the call throws', async () => {
    class BrokenAgent extends MockAgent {
      override addAssistantMessage(): void {
        throw new Error('storage down')
      }
    }
    let ended = false
    const server = await startServer((socket) => {
      const micdrop = new MicdropServer(socket, {
        agent: new BrokenAgent(),
        stt: new MockSTT(),
        tts: new MockTTS(),
        firstMessage: 'Hello',
      })
      micdrop.on('End', () => (ended = true))
    })
    cleanup.stop = server.close
    const client = await TestClient.connect(server.url)
    await client.waitForClose()
    expect([client.closeCode, client.closeReason]).toEqual([1011, 'Internal error'])
    expect(ended).toBe(true)
  })
  it('a failure while handling an agent event is logged, not thrown into the agent', async () => {
    const lines: string[] = []
    const logger = new Logger('test', (_prefix, ...message) => lines.push(message.join(' ')))
    const agent = new MockAgent({ answers: ['Fine.'] })
    const { client, server } = await call({ agent, logger })
    const send = server.socket.send.bind(server.socket)
    server.socket.send = ((data: unknown, ...rest: unknown[]) => {
      if (String(data).startsWith('Message {"role":"user"')) throw new Error('socket broke')
      return (send as (...args: unknown[]) => void)(data, ...rest)
    }) as typeof server.socket.send
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(
      lines.some((line) => line.startsWith('Error handling Message: Error: socket broke'))
    ).toBe(true)
    expect(client.flow.slice(-2)).toEqual(['audio', 'Message:assistant'])
    expect(agent.conversation.map((item) => item.role)).toEqual(['system', 'user', 'assistant'])
  })
})

describe('public methods', () => {
  it('speak() called right after new replaces the opening SkipAnswer', async () => {
    const server = await startServer((socket) => {
      const micdrop = new MicdropServer(socket, {
        agent: new MockAgent(),
        stt: new MockSTT(),
        tts: new MockTTS(),
      })
      void micdrop.speak('Welcome back.')
    })
    cleanup.stop = server.close
    const client = await TestClient.connect(server.url)
    await client.waitFor((c) => c.count('audio') > 0)
    await client.settle()
    expect(client.flow).toEqual(['audio'])
    expect(client.audioBytes()).toBe(13 * 10 * 32)
  })

  it('speak() sends audio without adding a message; cancel() stops it with SkipAnswer', async () => {
    const { client, server } = await call({ tts: new MockTTS({ chunkMs: 20, chunkDelayMs: 10 }) })
    const done = server.speak('Hold on, I am looking into it, this may take a little while.')
    await client.waitFor((c) => c.count('audio') >= 2)
    server.cancel()
    await done
    await client.settle()
    const frames = client.count('audio')
    await client.settle(80)
    expect(client.count('audio')).toBe(frames)
    expect(client.log.at(-1)).toBe('SkipAnswer')
    expect(client.count('Message:assistant')).toBe(0)

    await server.speak('Done.')
    await client.waitFor((c) => c.count('audio') > frames)
    expect(server.agent.conversation.map((item) => item.role)).toEqual(['system'])
  })

  it('answer() answers the conversation as it is', async () => {
    const { client, server } = await call({ agent: new MockAgent({ answers: ['Sure.'] }) })
    server.agent.addUserMessage('Typed message')
    await server.answer()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(client.flow).toEqual(['SkipAnswer', 'Message:user', 'audio', 'Message:assistant'])
  })
})

describe('metrics', () => {
  it('emits per-turn Metrics and sends them with sendMetrics', async () => {
    const { client, server } = await call({ sendMetrics: true })
    const metrics = new Promise((resolve) => server.on('Metrics', resolve))
    client.utterance()
    await client.waitFor((c) => c.count('Metrics') === 1)
    const sent = client.texts('Metrics')[0]
    expect(sent).toMatchObject({ type: 'Metrics' })
    const value = await metrics
    expect(sent).toEqual({ type: 'Metrics', metrics: value })
    expect(value).toEqual({
      sttMs: expect.any(Number),
      agentFirstTextMs: expect.any(Number),
      ttsFirstAudioMs: expect.any(Number),
      endToEndMs: expect.any(Number),
    })
    const m = value as Record<string, number>
    expect(m.endToEndMs).toBeGreaterThanOrEqual(m.agentFirstTextMs!)
    expect(m.endToEndMs).toBeLessThan(1000)
  })

  it('does not send Metrics unless asked', async () => {
    const { client } = await call()
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle()
    expect(client.count('Metrics')).toBe(0)
  })
})
