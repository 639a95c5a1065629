import {
  MockAgent,
  MockSTT,
  MockTTS,
  type MicdropConversationItem,
  type MicdropConversationMessage,
  type MockTTSOptions,
} from '@openmic/core'
import type { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { closeAfterEach, startMockCall, type TestClient } from './harness.js'

const cleanup = closeAfterEach()

// 28 characters at 10 ms each: 280 ms of audio. MockTTS words: "One" 0–30 ms, "two" 40–70 ms,
// "three" 80–130 ms, "four" 140–180 ms...
const ANSWER = 'One two three four five six.'
const ANSWER_BYTES = ANSWER.length * 10 * 32

/** A call answering "Count for me"; `captions`: the client is openmic's (it says `Hello`). */
async function answeredCall(tts: MockTTSOptions = {}, captions = true) {
  const sent: MicdropConversationItem[] = []
  const { client, server } = await startMockCall(
    cleanup,
    () => ({
      agent: new MockAgent({ answers: [ANSWER, 'Sure.'] }),
      stt: new MockSTT({ utterances: ['Count for me', 'Stop'] }),
      tts: new MockTTS(tts),
    }),
    { captions }
  )
  server.on('Message', (item) => sent.push(item))
  await client.waitFor((c) => c.count('SkipAnswer') === 1)
  client.utterance()
  return { client, server, sent }
}

/** Barge-in as the openmic client does it: `Played` first, then the utterance. */
function bargeIn(client: TestClient, playedMs?: number) {
  if (playedMs !== undefined) client.send(`Played ${JSON.stringify({ ms: playedMs })}`)
  client.utterance()
}

/** An agent that ends the call itself once its answer is written (no tool items). */
class GoodbyeAgent extends MockAgent {
  protected override async generateAnswer(stream: PassThrough, signal: AbortSignal) {
    await super.generateAnswer(stream, signal)
    if (!signal.aborted) this.endCall()
  }
}

const assistants = (items: MicdropConversationItem[]) =>
  items.filter((item): item is MicdropConversationMessage => item.role === 'assistant')

describe('the conversation keeps what the user heard', () => {
  it('with the client Played report and Words timings: cut after the last word played', async () => {
    const { client, server, sent } = await answeredCall()
    await client.waitFor((c) => c.audioBytes() === ANSWER_BYTES)
    bargeIn(client, 95)
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    await client.settle()
    const cut = { role: 'assistant', content: 'One two' }
    expect(assistants(sent)[0]).toEqual({
      ...cut,
      metadata: { interrupted: true, fullContent: ANSWER, heardMs: 95 },
    })
    expect(client.texts('Message')[1]).toMatchObject({ item: { ...cut } })
    expect(server.agent.conversation.map((item) => [item.role, item.content])).toEqual([
      ['system', expect.any(String)],
      ['user', 'Count for me'],
      ['assistant', 'One two'],
      ['user', 'Stop'],
      ['assistant', 'Sure.'],
    ])
    // One assistant Message per answer: the cut one replaces the full one, it is never sent too.
    expect(client.count('Message:assistant')).toBe(2)
  })

  it('with the Played report and no Words: proportional, never inside a word', async () => {
    const { client, sent } = await answeredCall({ words: false })
    await client.waitFor((c) => c.audioBytes() === ANSWER_BYTES)
    // 125 ms of 280: 12.5 of 28 characters, inside "three": only "One two" was heard.
    bargeIn(client, 125)
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    expect(assistants(sent)[0]).toMatchObject({
      content: 'One two',
      metadata: { interrupted: true, heardMs: 125 },
    })
  })

  it('with Words, the word timings decide: a word is kept once its end was played', async () => {
    const { client, sent } = await answeredCall()
    await client.waitFor((c) => c.audioBytes() === ANSWER_BYTES)
    // 130 ms: "three" ends at 130 ms (proportionally, 13 characters would stop inside it).
    bargeIn(client, 130)
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    expect(assistants(sent)[0]!.content).toBe('One two three')
  })

  it('without the report (a Micdrop client): estimated from the audio sent and the time since', async () => {
    // 20 ms chunks sent every 40 ms: the client plays each as it comes.
    const { client, sent } = await answeredCall({ chunkMs: 20, chunkDelayMs: 40 }, false)
    await client.waitFor((c) => c.count('audio') >= 1)
    const firstAudioAt = performance.now()
    await client.waitFor((c) => c.count('audio') >= 5)
    const receivedMs = client.audioBytes() / 32
    const elapsed = performance.now() - firstAudioAt
    bargeIn(client)
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    const cut = assistants(sent)[0]!
    expect(cut.metadata!.interrupted).toBe(true)
    // Played: everything sent but the chunk still playing, never more than was sent.
    // All the server sent of the cut answer: its audio before the barge-in's user message (the
    // client's count above may lag what the server had sent when the barge-in reached it)
    const userMessages = client.received.flatMap((item, index) =>
      item.kind === 'text' && item.message.type === 'Message' && item.message.item.role === 'user'
        ? [index]
        : []
    )
    const sentMs =
      client.received
        .slice(0, userMessages[1])
        .reduce((sum, item) => sum + (item.kind === 'audio' ? item.audio.length : 0), 0) / 32
    expect(cut.metadata!.heardMs).toBeLessThanOrEqual(sentMs)
    expect(cut.metadata!.heardMs).toBeGreaterThanOrEqual(Math.min(receivedMs, elapsed) - 40)
    expect(ANSWER.startsWith(cut.content!)).toBe(true)
    expect(cut.content!.length).toBeLessThan(ANSWER.length)
  })

  it('nothing played: no assistant message, the user message is answered with the next turn', async () => {
    const { client, server } = await answeredCall()
    await client.waitFor((c) => c.audioBytes() === ANSWER_BYTES)
    bargeIn(client, 0)
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle()
    expect(server.agent.conversation.map((item) => item.role)).toEqual([
      'system',
      'user',
      'user',
      'assistant',
    ])
  })

  it('all of it played: the whole message, unflagged, sent once its audio has played', async () => {
    const { client, sent } = await answeredCall()
    await client.waitFor((c) => c.count('audio') >= 1)
    const firstAudioAt = performance.now()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    // The client needs 280 ms to play it: the message follows its audio, not its text (the bound
    // is half of that: only a message sent with the text, not a timer, can miss it).
    expect(performance.now() - firstAudioAt).toBeGreaterThanOrEqual(140)
    expect(client.log.indexOf('Message:assistant')).toBeGreaterThan(client.log.lastIndexOf('audio'))
    bargeIn(client, ANSWER.length * 10)
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    expect(assistants(sent)[0]).toEqual({ role: 'assistant', content: ANSWER })
  })

  it('a client that leaves mid-answer: the call ends with what was heard', async () => {
    const { client, server } = await answeredCall()
    await client.waitFor((c) => c.audioBytes() === ANSWER_BYTES)
    client.send(`Played ${JSON.stringify({ ms: 75 })}`)
    const ended = new Promise<MicdropConversationItem[]>((resolve) =>
      server.on('End', ({ conversation }) => resolve(conversation))
    )
    const persisted: MicdropConversationItem[] = []
    server.on('Message', (item) => persisted.push(item))
    await new Promise((resolve) => setTimeout(resolve, 20))
    client.close()
    const conversation = await ended
    expect(conversation.at(-1)).toMatchObject({ role: 'assistant', content: 'One two' })
    expect(persisted).toEqual([conversation.at(-1)])
  })

  it('a goodbye interrupted before a word of it was heard still ends the call', async () => {
    const { client, server } = await startMockCall(
      cleanup,
      () => ({
        agent: new GoodbyeAgent({ answers: ['Goodbye, have a nice day!'] }),
        tts: new MockTTS({ chunkMs: 20, chunkDelayMs: 20 }),
      }),
      { captions: true }
    )
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    await client.waitFor((c) => c.count('audio') >= 1)
    bargeIn(client, 0)
    await client.waitFor((c) => c.count('EndCall') === 1)
    // At the cut, not after an answer to the next utterance; and nothing of the goodbye is kept.
    // The words said over it are kept, and not answered: the call is ending
    await client.waitFor((c) => c.count('Message:user') === 2)
    await client.settle()
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Interrupt',
      'Message:user',
      'audio',
      'Interrupt', // the barge-in cut the goodbye
      'EndCall', // at the cut: the goodbye was not heard at all, but the call ends
      'Message:user',
    ])
    expect(server.agent.conversation[2]).toMatchObject({ role: 'user' })
  })

  it('ignores a malformed Played and keeps the call going', async () => {
    const { client } = await answeredCall()
    client.send('Played')
    client.send('Played {"ms":"soon"}')
    client.send('Played not json')
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(client.closeCode).toBeUndefined()
  })
})
