import { MockAgent, MockSTT, type MockAgentOptions, type MockTTSOptions } from '@openmic/core'
import type { WebSocket } from 'ws'
import { describe, expect, it } from 'vitest'
import { MicdropServer } from '../src/index.js'
import { TaggedTTS, tagOf } from './doubles.js'
import { closeAfterEach, TestClient, startServer } from './harness.js'

const cleanup = closeAfterEach()

/**
 * What the server did, in order: audio frames sent (with the `speak()` number they came from) and
 * the moments it finished handling a StartSpeaking (with the number of `speak()` calls by then).
 */
type Event = { kind: 'audio'; tag: number } | { kind: 'start'; speaks: number }

async function call(agent: MockAgent, tts: TaggedTTS, stt = new MockSTT(), firstMessage?: string) {
  const events: Event[] = []
  let micdrop: MicdropServer | undefined
  const server = await startServer((socket: WebSocket) => {
    const send = socket.send.bind(socket)
    socket.send = ((data: any, ...rest: any[]) => {
      if (Buffer.isBuffer(data)) events.push({ kind: 'audio', tag: tagOf(data) })
      return (send as any)(data, ...rest)
    }) as typeof socket.send
    micdrop = new MicdropServer(socket, { agent, stt, tts, firstMessage })
    // Registered after the server's listener: runs once the server has handled the frame.
    socket.on('message', (data, isBinary) => {
      if (!isBinary && data.toString() === 'StartSpeaking')
        events.push({ kind: 'start', speaks: tts.calls })
    })
  })
  cleanup.stop = server.close
  const client = await TestClient.connect(server.url)
  await client.waitFor((c) => c.count(firstMessage ? 'audio' : 'SkipAnswer') >= 1)
  return { client, events, server: () => micdrop! }
}

/** The invariant: after a StartSpeaking was handled, no audio of an answer started before it. */
function expectNoCancelledAudio(events: Event[]) {
  let cancelledUpTo = 0
  const late: Event[] = []
  for (const event of events) {
    if (event.kind === 'start') cancelledUpTo = event.speaks
    else if (event.tag <= cancelledUpTo) late.push(event)
  }
  expect(late).toEqual([])
  expect(events.some((event) => event.kind === 'start')).toBe(true)
}

const slowTTS: MockTTSOptions = { chunkMs: 20, chunkDelayMs: 15 }
const longAnswer =
  'This is a long answer that keeps going for quite a while, sentence after sentence.'

describe('barge-in', () => {
  it('before the transcript: it joins the next utterance, one message and one answer', async () => {
    const stt = new MockSTT({ utterances: [{ transcripts: 'First', delayMs: 80 }, 'Second'] })
    const { client, events, server } = await call(new MockAgent(), new TaggedTTS(), stt)
    client.utterance()
    client.send('StartSpeaking')
    client.audio()
    await new Promise((resolve) => setTimeout(resolve, 150)) // the first transcript came
    expect(client.count('audio')).toBe(0)
    expect(client.count('Message:user')).toBe(0)
    client.send('StopSpeaking')
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle()
    expect(client.count('Message:assistant')).toBe(1)
    expect(server().agent.conversation.slice(1)).toEqual([
      { role: 'user', content: 'First Second' },
      { role: 'assistant', content: 'You said: "First Second"' },
    ])
    // A transcript after StopSpeaking restarts the answer: the older one never plays after it.
    const tags = events.flatMap((e) => (e.kind === 'audio' ? [e.tag] : []))
    expect(tags).toEqual([...tags].sort((a, b) => a - b))
  })

  it('while the agent streams, before any text: no audio and no assistant message', async () => {
    const agent = new MockAgent({
      answers: [longAnswer, 'Short.'],
      firstWordDelayMs: 100,
    } as MockAgentOptions)
    const { client, events, server } = await call(agent, new TaggedTTS())
    client.utterance()
    await client.waitFor((c) => c.count('Message:user') === 1)
    client.send('StartSpeaking')
    client.audio()
    client.send('StopSpeaking')
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle(150)
    expectNoCancelledAudio(events)
    expect(client.count('Message:assistant')).toBe(1)
    expect(server().agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'Short.' })
  })

  it('while the agent streams text and TTS audio flows: the audio stops at once', async () => {
    const agent = new MockAgent({ answers: [longAnswer, 'Short.'], wordDelayMs: 10 })
    const { client, events } = await call(agent, new TaggedTTS(slowTTS))
    client.utterance()
    await client.waitFor((c) => c.count('audio') >= 2)
    client.send('StartSpeaking')
    client.audio()
    client.send('StopSpeaking')
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle(150)
    expectNoCancelledAudio(events)
    const tags = events.flatMap((e) => (e.kind === 'audio' ? [e.tag] : []))
    expect(new Set(tags)).toEqual(new Set([1, 2]))
  })

  it('while TTS audio flows after the text is complete', async () => {
    const agent = new MockAgent({ answers: [longAnswer, 'Short.'] })
    const { client, events } = await call(agent, new TaggedTTS(slowTTS))
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1 && c.count('audio') >= 2)
    client.send('StartSpeaking')
    await client.settle(100)
    const audioBefore = client.count('audio')
    await client.settle(100)
    expect(client.count('audio')).toBe(audioBefore)
    expectNoCancelledAudio(events)
    // The interrupted answer stays in the conversation: it was said (in part) before the barge-in.
    client.audio()
    client.send('StopSpeaking')
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    await client.settle()
    expectNoCancelledAudio(events)
  })

  it('during a tool call: the answer after the tool is never spoken', async () => {
    const { z } = await import('zod')
    const agent = new MockAgent({
      answers: [
        { toolCalls: [{ name: 'slow_lookup', parameters: { q: 'x' } }] },
        longAnswer,
        'Short.',
      ],
    })
    agent.addTool({
      name: 'slow_lookup',
      description: 'Slow',
      inputSchema: z.object({ q: z.string() }),
      execute: () => new Promise((resolve) => setTimeout(() => resolve('done'), 100)),
    })
    const { client, events, server } = await call(agent, new TaggedTTS(slowTTS))
    client.utterance()
    await client.waitFor((c) => c.count('Message:tool_call') === 1)
    client.send('StartSpeaking')
    await client.settle(200)
    expect(client.count('audio')).toBe(0)
    expect(client.count('Message:assistant')).toBe(0)
    client.audio()
    client.send('StopSpeaking')
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle(150)
    expectNoCancelledAudio(events)
    expect(server().agent.conversation.filter((i) => i.role === 'assistant')).toHaveLength(1)
  })

  it('during the first message', async () => {
    const { client, events } = await call(
      new MockAgent(),
      new TaggedTTS(slowTTS),
      undefined,
      longAnswer
    )
    await client.waitFor((c) => c.count('audio') >= 2)
    client.utterance()
    await client.waitFor((c) => c.count('Message:user') === 1 && c.answeredLast)
    await client.settle(150)
    expectNoCancelledAudio(events)
  })

  it('a message whose answer was cut (before it was saved) by noise is answered after the noise', async () => {
    const agent = new MockAgent({ answers: [longAnswer, 'Where was I? Yes.'], wordDelayMs: 10 })
    const stt = new MockSTT({ utterances: ['A real question', ''] })
    const { client, events, server } = await call(agent, new TaggedTTS(slowTTS), stt)
    client.utterance()
    await client.waitFor((c) => c.count('audio') >= 2)
    client.utterance() // a cough: empty transcript
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle()
    expectNoCancelledAudio(events)
    expect(client.count('SkipAnswer')).toBe(1) // the opening one: the noise turn got an answer
    expect(server().agent.conversation).toEqual([
      { role: 'system', content: 'You are a mock agent.' },
      { role: 'user', content: 'A real question' },
      { role: 'assistant', content: 'Where was I? Yes.' },
    ])
  })
})
