import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import type { MicdropServerOptions } from '../src/index.js'
import { ThrowingSTT, ThrowingTTS } from './doubles.js'
import { closeAfterEach, finalItems, TestClient, startMockCall, until } from './harness.js'

type CallOptions = Partial<MicdropServerOptions>

const cleanup = closeAfterEach()

/**
 * Starts a server whose calls use fresh doubles from `make`, and connects one client: openmic's
 * (it says `Hello`), which takes each answer's `Message` once heard, after its audio.
 */
const call = (make?: () => CallOptions) => startMockCall(cleanup, make, { captions: true })

const ends = (entry: string) => (client: TestClient) => client.log.at(-1) === entry
const answered = (n: number) => (client: TestClient) =>
  client.count('Message:assistant') >= n && client.count('audio') > 0

describe('first message', () => {
  it('sends SkipAnswer when there is no first message', async () => {
    const { client } = await call()
    await client.waitFor(ends('SkipAnswer'))
    expect(client.log).toEqual(['SkipAnswer'])
  })

  it('speaks firstMessage as real PCM, and keeps it once heard', async () => {
    const { client, server } = await call(() => ({ firstMessage: 'Hello, how can I help?' }))
    const kept = finalItems(server)
    await client.waitFor((c) => c.audioBytes() >= 22 * 10 * 32)
    await until(() => kept.length === 1)
    expect(client.flow).toEqual(['audio', 'Message:assistant'])
    expect(client.texts('Message')[0]).toMatchObject({
      item: { role: 'assistant', content: 'Hello, how can I help?' },
    })
    // 22 characters at 10 ms each, 16 kHz, 2 bytes per sample.
    expect(client.audioBytes()).toBe(22 * 10 * 32)
    const samples = Buffer.concat(
      client.received.flatMap((r) => (r.kind === 'audio' ? [r.audio] : []))
    )
    let peak = 0
    for (let i = 0; i < samples.length; i += 2)
      peak = Math.max(peak, Math.abs(samples.readInt16LE(i)))
    expect(peak).toBeGreaterThan(5000)
    expect(server.agent.conversation.map((item) => item.role)).toEqual(['system', 'assistant'])
  })

  it('generateFirstMessage makes the agent answer the system prompt alone', async () => {
    const { client, server } = await call(() => ({
      agent: new MockAgent({ answers: ['Welcome!'] }),
      generateFirstMessage: true,
    }))
    await client.waitFor(answered(1))
    await client.settle()
    expect(client.flow).toEqual(['audio', 'Message:assistant'])
    expect(server.agent.conversation.map((item) => item.role)).toEqual(['system', 'assistant'])
  })

  it('a failed generated first message ends in SkipAnswer', async () => {
    const { client } = await call(() => ({
      agent: new MockAgent({ answers: [{ error: new Error('down') }], maxRetry: 0 }),
      generateFirstMessage: true,
    }))
    await client.waitFor(ends('SkipAnswer'))
    expect(client.log).toEqual(['SkipAnswer'])
  })
})

describe('user turns', () => {
  it('answers a user turn once: user Message, assistant Message, audio', async () => {
    const { client, server } = await call(() => ({
      stt: new MockSTT({ utterances: ['Hi there'] }),
    }))
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    await client.waitFor(answered(1))
    await client.settle()
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Interrupt', // the barge-in is settled: nothing was playing
      'Message:user',
      'audio',
      'Message:assistant',
    ])
    expect(server.agent.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'You said: "Hi there"',
    })
  })

  it('answers consecutive turns, each exactly once', async () => {
    const { client, server } = await call()
    const kept = finalItems(server)
    await client.waitFor(ends('SkipAnswer'))
    for (let turn = 1; turn <= 3; turn++) {
      client.utterance()
      await client.waitFor(answered(turn))
      // Heard to its end before the user speaks again
      await until(() => kept.filter((item) => item.role === 'assistant').length === turn)
    }
    await client.settle()
    expect(client.count('Message:assistant')).toBe(3)
    expect(client.count('Message:user')).toBe(3)
    expect(server.agent.conversation.filter((item) => item.role === 'assistant')).toHaveLength(3)
  })

  it('sends SkipAnswer for an empty transcript', async () => {
    const { client } = await call(() => ({ stt: new MockSTT({ utterances: ['  '] }) }))
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    await client.settle()
    expect(client.log).toEqual(['SkipAnswer', 'Interrupt', 'SkipAnswer'])
  })

  it('sends SkipAnswer when the utterance had no audio', async () => {
    const { client, server } = await call()
    await client.waitFor(ends('SkipAnswer'))
    client.utterance(0)
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    await client.settle()
    expect(client.log).toEqual(['SkipAnswer', 'Interrupt', 'SkipAnswer'])
    expect((server.stt as MockSTT).audioBytes).toBe(0)
  })

  it('sends SkipAnswer when the STT fails, and the next turn still works', async () => {
    const stt = new MockSTT({ utterances: [{ error: new Error('stt down') }, 'Second try'] })
    const { client } = await call(() => ({ stt }))
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    client.utterance()
    await client.waitFor(answered(1))
    await client.settle()
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Interrupt',
      'SkipAnswer',
      'Interrupt',
      'Message:user',
      'audio',
      'Message:assistant',
    ])
  })

  it('sends SkipAnswer when the STT throws, turn after turn', async () => {
    const { client } = await call(() => ({ stt: new ThrowingSTT() }))
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 3)
    await client.settle()
    expect(client.log).toEqual(['SkipAnswer', 'Interrupt', 'SkipAnswer', 'Interrupt', 'SkipAnswer'])
    expect(client.closeCode).toBeUndefined()
  })

  it('forwards CancelLastUserMessage and sends one SkipAnswer when the agent ignores noise', async () => {
    const agent = new MockAgent({
      autoIgnoreUserNoise: true,
      answers: [{ toolCalls: [{ name: 'ignore_user_noise' }] }, 'Answer.'],
    })
    const { client, server } = await call(() => ({
      agent,
      stt: new MockSTT({ utterances: ['Hmm'] }),
    }))
    // The server's events follow what the store keeps: the message, then its taking back
    const events: string[] = []
    server.on('Message', (item) => events.push(`Message:${item.role}`))
    server.on('CancelLastUserMessage', () => events.push('CancelLastUserMessage'))
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    await client.settle()
    expect(events).toEqual([
      'Message:user',
      'Message:tool_call',
      'CancelLastUserMessage',
      'Message:tool_result',
    ])
    expect(client.log).toEqual([
      'SkipAnswer',
      'Interrupt',
      'Message:user',
      'Message:tool_call',
      'CancelLastUserMessage',
      'SkipAnswer',
      'Message:tool_result',
    ])
    expect(server.agent.conversation.some((item) => item.role === 'user')).toBe(false)
  })

  it('sends SkipAnswer when no transcript comes in time', async () => {
    const { client } = await call(() => ({
      stt: new MockSTT({ utterances: [{ transcripts: [] }] }),
      transcriptTimeoutMs: 100,
    }))
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    expect(client.log).toEqual(['SkipAnswer', 'Interrupt', 'SkipAnswer'])
  })

  it('sends SkipAnswer when the agent fails, or answers with no text', async () => {
    const agent = new MockAgent({
      answers: [{ error: new Error('llm down') }, '', 'Fine'],
      maxRetry: 0,
    })
    const { client } = await call(() => ({ agent }))
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 3)
    client.utterance()
    await client.waitFor(answered(1))
    await client.settle()
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Interrupt',
      'Message:user',
      'SkipAnswer',
      'Interrupt',
      'Message:user',
      'SkipAnswer',
      'Interrupt',
      'Message:user',
      'audio',
      'Message:assistant',
    ])
  })

  it('sends SkipAnswer when the TTS fails or throws, and the call goes on', async () => {
    const failing = await call(() => ({ tts: new MockTTS({ error: new Error('tts down') }) }))
    const { client } = failing
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    await client.settle()
    expect(client.log).toEqual(['SkipAnswer', 'Interrupt', 'Message:user', 'SkipAnswer'])
    await cleanup.stop?.()

    // The first message too: nothing of it was heard, so the conversation does not keep it
    const throwing = await call(() => ({ tts: new ThrowingTTS(), firstMessage: 'Hi' }))
    await throwing.client.waitFor(ends('SkipAnswer'))
    throwing.client.utterance()
    await throwing.client.waitFor((c) => c.count('SkipAnswer') === 2)
    expect(throwing.client.log).toEqual(['SkipAnswer', 'Interrupt', 'Message:user', 'SkipAnswer'])
    expect(throwing.server.agent.conversation.map((item) => item.role)).toEqual(['system', 'user'])
  })

  it('holds a transcript that comes while the user speaks, and answers it with the rest after StopSpeaking', async () => {
    const { client, server } = await call(() => ({
      stt: new MockSTT({ utterances: [{ transcripts: ['One,', 'two.'], emitOn: 'audio' }] }),
    }))
    await client.waitFor(ends('SkipAnswer'))
    client.send('StartSpeaking')
    client.audio()
    await client.settle(100)
    expect(client.log).toEqual(['SkipAnswer', 'Interrupt'])
    client.send('StopSpeaking')
    await client.waitFor(answered(1))
    await client.settle()
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Interrupt', // the barge-in is settled: nothing was playing
      'Message:user',
      'audio',
      'Message:assistant',
    ])
    expect(server.agent.conversation).toEqual([
      expect.objectContaining({ role: 'system' }),
      { role: 'user', content: 'One, two.' },
      { role: 'assistant', content: 'You said: "One, two."' },
    ])
  })

  it('joins several transcripts of one utterance into one user message, answered once', async () => {
    const { client, server } = await call(() => ({
      stt: new MockSTT({ utterances: [{ transcripts: ['Part one', 'part two'] }] }),
    }))
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    await client.waitFor(answered(1))
    await client.settle()
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Interrupt', // the barge-in is settled: nothing was playing
      'Message:user',
      'audio',
      'Message:assistant',
    ])
    expect(server.agent.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'You said: "Part one part two"',
    })
  })

  it('drops and counts audio received outside an utterance', async () => {
    const { client, server } = await call()
    await client.waitFor(ends('SkipAnswer'))
    client.audio()
    client.audio()
    client.utterance(1)
    await client.waitFor(answered(1))
    expect(server.droppedAudioFrames).toBe(2)
    expect((server.stt as MockSTT).audioBytes).toBe(3200)
  })

  it('Mute cancels the answer and no answer follows', async () => {
    const stt = new MockSTT({ utterances: [{ transcripts: 'Wait', delayMs: 50 }, 'Go on'] })
    const { client, server } = await call(() => ({
      stt,
      tts: new MockTTS({ firstAudioDelayMs: 30 }),
    }))
    await client.waitFor(ends('SkipAnswer'))
    client.send('StartSpeaking')
    client.audio()
    client.send('Mute')
    await client.waitFor((c) => c.count('Message:user') === 1)
    await client.settle(150)
    // Both barge-ins are settled (nothing was playing)
    expect(client.log).toEqual(['SkipAnswer', 'Interrupt', 'Interrupt', 'Message:user'])
    // The muted message is answered with the next turn, once.
    client.utterance()
    await client.waitFor(answered(1))
    await client.settle()
    expect(client.count('Message:assistant')).toBe(1)
    expect(server.agent.conversation.map((item) => item.role)).toEqual([
      'system',
      'user',
      'user',
      'assistant',
    ])
  })

  it('ignores unknown text frames and keeps the call going', async () => {
    const { client } = await call()
    await client.waitFor(ends('SkipAnswer'))
    client.send('Hello?')
    client.send('{"not":"a command"}')
    client.send('')
    client.utterance()
    await client.waitFor(answered(1))
    expect(client.closeCode).toBeUndefined()
  })
})

describe('tools and end of call', () => {
  it('sends EndCall once, after the last audio frame of the goodbye', async () => {
    const { client } = await call(() => ({
      agent: new MockAgent({
        autoEndCall: true,
        answers: [{ text: 'Goodbye, have a nice day!', toolCalls: [{ name: 'end_call' }] }, ''],
      }),
      tts: new MockTTS({ chunkMs: 20, chunkDelayMs: 5 }),
    }))
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    await client.waitFor(ends('EndCall'))
    await client.settle()
    expect(client.count('EndCall')).toBe(1)
    expect(client.log.at(-1)).toBe('EndCall')
    expect(client.audioBytes()).toBe(25 * 10 * 32)
    // The goodbye once it was heard, its tool items behind it, then EndCall
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Interrupt',
      'Message:user',
      'audio',
      'Message:assistant',
      'Message:tool_call',
      'Message:tool_result',
      'EndCall',
    ])
  })

  it('sends ToolCall for emitOutput tools and every tool item as a Message', async () => {
    const { z } = await import('zod')
    const agent = new MockAgent({
      answers: [{ toolCalls: [{ name: 'lookup', parameters: { city: 'Paris' } }] }, 'It is sunny.'],
    })
    agent.addTool({
      name: 'lookup',
      description: 'Weather',
      inputSchema: z.object({ city: z.string() }),
      emitOutput: true,
      execute: ({ city }) => ({ city, weather: 'sunny' }),
    })
    const { client } = await call(() => ({ agent }))
    await client.waitFor(ends('SkipAnswer'))
    client.utterance()
    await client.waitFor(answered(1))
    await client.settle()
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Interrupt',
      'Message:user',
      'Message:tool_call',
      'Message:tool_result',
      'ToolCall',
      'audio',
      'Message:assistant',
    ])
    expect(client.texts('ToolCall')[0]).toEqual({
      type: 'ToolCall',
      toolCall: {
        name: 'lookup',
        parameters: { city: 'Paris' },
        output: { city: 'Paris', weather: 'sunny' },
      },
    })
  })
})
