// The turn edges a realtime model adds, on virtual time: a MicdropServer given `realtime` (core's
// MockRealtime behind a RealtimeAgent) on the simulator's in-memory socket and clock. The answer
// asked for at the commit is heard when the transcript is in, in one hop; what the call drops
// (the user went on, a pause that was not the end, noise) leaves neither audio nor memory.
import {
  Logger,
  MockRealtime,
  RealtimeAgent,
  type MockRealtimeOptions,
  type RealtimeAgentOptions,
} from '@openmic/core'
import { encodeClientHello, parseServerMessage } from '@openmic/core/protocol'
import { MicdropServer, type MicdropServerOptions } from '@openmic/server'
import { describe, expect, it } from 'vitest'
import { createSocketPair } from '../../src/simulator/memory-socket.js'
import { withVirtualClock, type VirtualClock } from '../../src/simulator/virtual-clock.js'

/** One way of the in-memory connection, in ms. */
const LATENCY_MS = 10
const CHUNK = Buffer.alloc(3200, 7) // 100 ms of audio

interface Received {
  atMs: number
  frame: string
}

/** A call on virtual time: the client's frames with their virtual times, and a way to act. */
async function realtimeCall(
  clock: VirtualClock,
  model: MockRealtimeOptions,
  options: { agent?: Partial<RealtimeAgentOptions>; server?: Partial<MicdropServerOptions> } = {}
) {
  const mock = new MockRealtime(model)
  const agent = new RealtimeAgent({ model: mock, systemPrompt: 'Be brief.', ...options.agent })
  const received: Received[] = []
  const pair = createSocketPair(
    LATENCY_MS,
    {
      text: (text) => {
        const message = parseServerMessage(text)
        const frame = message.type === 'Message' ? `Message:${message.item.role}` : message.type
        received.push({ atMs: clock.now, frame })
      },
      audio: () => received.push({ atMs: clock.now, frame: 'audio' }),
      close: () => {},
    },
    { sent: () => {}, delivered: () => {}, closed: () => {} }
  )
  const server = new MicdropServer(pair.server, {
    realtime: agent,
    ...(process.env.DEBUG_CALL ? { logger: new Logger('call') } : {}),
    ...options.server,
  })
  const items: string[] = []
  server.on('Message', (item) => items.push(`${item.role}:${item.content ?? ''}`))
  const client = pair.client
  const speak = async (ms: number) => {
    client.sendText('StartSpeaking')
    for (let sent = 0; sent < ms; sent += 100) {
      client.sendAudio(CHUNK)
      await clock.runFor(100)
    }
  }
  const count = (frame: string) => received.filter((entry) => entry.frame === frame).length
  const first = (frame: string, fromMs = 0) =>
    received.find((entry) => entry.frame === frame && entry.atMs >= fromMs)?.atMs
  const until = (done: () => boolean, ms = 30_000) => clock.runUntil(done, clock.now + ms)
  return { mock, agent, server, client, received, items, speak, count, first, until }
}

const memory = (mock: MockRealtime) => mock.items.map((item) => `${item.role}:${item.text}`)

describe('realtime turns on virtual time', () => {
  it('the answer asked at the commit is heard as soon as the transcript is in: one hop, not two', async () => {
    const firstAudio = (answerEarly: boolean) =>
      withVirtualClock(async (clock) => {
        // The model speaks 100 ms after it is asked; the transcript takes 300 ms
        const call = await realtimeCall(
          clock,
          { firstAudioDelayMs: 100, transcriptDelayMs: 300, answers: ['Sure.'] },
          { agent: { answerEarly } }
        )
        await call.until(() => call.count('SkipAnswer') === 1)
        await call.speak(500)
        call.client.sendText('StopSpeaking')
        const stoppedAt = clock.now
        await call.until(() => call.count('audio') > 0)
        return call.first('audio')! - stoppedAt
      })
    // StopSpeaking reaches the server after 10 ms, the audio the client 10 ms after it is sent;
    // the mock's own steps take a ms or two
    const oneHop = await firstAudio(true)
    const twoHops = await firstAudio(false)
    expect(oneHop).toBeGreaterThanOrEqual(LATENCY_MS + 300 + LATENCY_MS)
    expect(oneHop).toBeLessThan(LATENCY_MS + 300 + 100 + LATENCY_MS)
    expect(twoHops).toBeGreaterThanOrEqual(LATENCY_MS + 300 + 100 + LATENCY_MS)
  })

  it('the user going on before the transcript: one answer to both utterances, nothing of the first one heard', async () => {
    await withVirtualClock(async (clock) => {
      const call = await realtimeCall(clock, {
        transcriptDelayMs: 400,
        firstAudioDelayMs: 50,
        transcripts: ['I would like', 'a coffee.'],
        answers: ['To the first words.', 'Coffee coming.'],
      })
      await call.until(() => call.count('SkipAnswer') === 1)
      await call.speak(300)
      call.client.sendText('StopSpeaking')
      await clock.runFor(150) // the model answered the first words; their transcript is not in
      await call.speak(300)
      call.client.sendText('StopSpeaking')
      await call.until(() => call.count('Message:assistant') === 1)
      await clock.runFor(2000)
      expect(call.count('Message:assistant')).toBe(1)
      expect(call.items).toEqual(['user:I would like a coffee.', 'assistant:Coffee coming.'])
      expect(memory(call.mock)).toEqual([
        'user:I would like',
        'user:a coffee.',
        'assistant:Coffee coming.',
      ])
    })
  })

  it('preemptive: the answer to a pause is dropped when the user goes on, and leaves the model', async () => {
    await withVirtualClock(async (clock) => {
      const call = await realtimeCall(
        clock,
        {
          transcripts: ['Book a table', 'for two.'],
          answers: ['For how many?', 'Booked for two.'],
          chunkDelayMs: 30,
        },
        { server: { preemptive: true } }
      )
      call.client.sendText(encodeClientHello({ captions: true }))
      await call.until(() => call.count('SkipAnswer') === 1)
      await call.speak(300)
      call.client.sendText('PauseSpeaking')
      await clock.runFor(200) // answered, held while the pause lasts
      call.client.sendText('ResumeSpeaking')
      for (let i = 0; i < 3; i++) {
        call.client.sendAudio(CHUNK)
        await clock.runFor(100)
      }
      call.client.sendText('StopSpeaking')
      await call.until(() => call.count('Message:assistant') === 1)
      await clock.runFor(2000)
      expect(call.items).toEqual(['user:Book a table for two.', 'assistant:Booked for two.'])
      expect(memory(call.mock)).toEqual([
        'user:Book a table',
        'user:for two.',
        'assistant:Booked for two.',
      ])
      // Nothing of the dropped answer was heard
      expect(call.count('audio')).toBe('Booked for two.'.match(/\S+\s*/g)!.length)
    })
  })

  it('a mute: the words stay unanswered, and the next turn answers them with the new ones', async () => {
    await withVirtualClock(async (clock) => {
      const call = await realtimeCall(clock, {
        transcriptDelayMs: 50,
        transcripts: ['Hold on', 'Ok, go on.'],
        answers: ['Never played.', 'Going on.'],
      })
      await call.until(() => call.count('SkipAnswer') === 1)
      await call.speak(300)
      call.client.sendText('Mute')
      await clock.runFor(1000)
      expect(call.count('audio')).toBe(0)
      await call.speak(300)
      call.client.sendText('StopSpeaking')
      await call.until(() => call.count('Message:assistant') === 1)
      await clock.runFor(2000) // heard: final
      expect(call.items).toEqual(['user:Hold on', 'user:Ok, go on.', 'assistant:Going on.'])
      expect(memory(call.mock)).toEqual(['user:Hold on', 'user:Ok, go on.', 'assistant:Going on.'])
    })
  })
})
