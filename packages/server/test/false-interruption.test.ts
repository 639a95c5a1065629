import {
  MockAgent,
  MockSTT,
  MockTTS,
  type MicdropConversationItem,
  type MockAgentOptions,
  type MockSTTOptions,
  type MockTTSOptions,
} from '@openmic/core'
import { describe, expect, it } from 'vitest'
import type { MicdropServerOptions } from '../src/index.js'
import { closeAfterEach, startMockCall, type TestClient } from './harness.js'

const cleanup = closeAfterEach()

// 28 characters at 10 ms each: 280 ms of audio (MockTTS words: "One" 0–30 ms, "two" 40–70 ms...).
const ANSWER = 'One two three four five six.'
const ANSWER_BYTES = ANSWER.length * 10 * 32

async function answering(
  utterances: MockSTTOptions['utterances'],
  options: { agent?: MockAgentOptions; tts?: MockTTSOptions; micdropClient?: boolean } & Omit<
    Partial<MicdropServerOptions>,
    'agent' | 'tts'
  > = {}
) {
  const { agent, tts, micdropClient: _micdrop, ...server } = options
  const sent: MicdropConversationItem[] = []
  const call = await startMockCall(
    cleanup,
    () => ({
      agent: new MockAgent({ answers: [ANSWER, 'Sure.'], ...agent }),
      stt: new MockSTT({ utterances }),
      tts: new MockTTS(tts),
      ...server,
    }),
    { captions: !options.micdropClient }
  )
  call.server.on('Message', (item) => sent.push(item))
  await call.client.waitFor((c) => c.count('SkipAnswer') === 1)
  call.client.utterance()
  return { ...call, sent }
}

/** What the openmic client does at StartSpeaking: report where it paused, then the utterance. */
function pauseAndSpeak(client: TestClient, playedMs: number) {
  client.send(`Played ${JSON.stringify({ ms: playedMs, paused: true })}`)
  client.utterance()
}

/** Entries of the flow from index `from` on. */
const after = (client: TestClient, from: number) => client.flow.slice(from)

/** How many `name` frames came from index `from` of the flow on. */
const countAfter = (client: TestClient, from: number, name: string) =>
  after(client, from).filter((entry) => entry === name).length

describe('false interruptions', () => {
  it('a cough (empty transcript) while the answer streams: held, then Resume and the rest', async () => {
    // The verdict comes after the held answer was all produced (buffered while held)
    const noise = { transcripts: '', delayMs: 400 }
    const { client, server, sent } = await answering(['Count for me', noise], {
      tts: { chunkMs: 20, chunkDelayMs: 20 },
    })
    await client.waitFor((c) => c.count('audio') >= 3)
    const from = client.flow.length
    pauseAndSpeak(client, 40)
    await client.waitFor((c) => c.count('Resume') === 1)
    const resumedAt = client.log.indexOf('Resume')
    const resumedTime = performance.now()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    // Its message goes once the rest has played: 240 ms of audio from where the client paused
    // (the bound is half of that: only a message sent at once, not a timer, can miss it)
    expect(performance.now() - resumedTime).toBeGreaterThanOrEqual(120)
    await client.settle()
    // Nothing of the answer was lost: all of its audio came, after Resume for what was held.
    expect(client.audioBytes()).toBe(ANSWER_BYTES)
    expect(client.log.slice(resumedAt + 1)).toContain('audio')
    expect(countAfter(client, from, 'Interrupt')).toBe(0)
    expect(sent.filter((item) => item.role === 'assistant')).toEqual([
      { role: 'assistant', content: ANSWER },
    ])
    expect(server.agent.conversation.map((item) => item.role)).toEqual([
      'system',
      'user',
      'assistant',
    ])
  })

  it('noise found by the agent (ignore_user_noise): Resume, the message kept whole', async () => {
    const { client, server, sent } = await answering(['Count for me', 'Hmm'], {
      agent: {
        autoIgnoreUserNoise: true,
        answers: [ANSWER, { toolCalls: [{ name: 'ignore_user_noise' }] }],
      },
    })
    await client.waitFor((c) => c.audioBytes() === ANSWER_BYTES)
    const from = client.flow.length
    pauseAndSpeak(client, 95)
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle()
    expect(client.count('Resume')).toBe(1)
    expect(countAfter(client, from, 'Interrupt')).toBe(0)
    // The user's words waited behind the resumed answer (the conversation's order): taken back
    // before they went, neither the client nor the store ever sees them
    const log = client.log
    expect(log.indexOf('Resume')).toBeLessThan(log.lastIndexOf('Message:assistant'))
    expect(client.count('Message:user')).toBe(1)
    expect(client.count('CancelLastUserMessage')).toBe(0)
    expect(sent.map((item) => item.content)).not.toContain('Hmm')
    expect(client.texts('Message')[1]).toMatchObject({
      item: { role: 'assistant', content: ANSWER },
    })
    const messages = server.agent.conversation.filter((item) => item.content !== undefined)
    expect(messages.map((item) => item.role)).toEqual(['system', 'user', 'assistant'])
    expect(client.conversation).toEqual(server.agent.conversation.slice(1))
  })

  it('a real interruption: Interrupt, the answer cut where the client paused, then the new answer', async () => {
    const { client, server } = await answering(['Count for me', 'Stop'])
    await client.waitFor((c) => c.audioBytes() === ANSWER_BYTES)
    const from = client.flow.length
    pauseAndSpeak(client, 95)
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    await client.settle()
    expect(after(client, from)).toEqual([
      'Interrupt',
      'Message:assistant',
      'Message:user',
      'audio',
      'Message:assistant',
    ])
    expect(server.agent.conversation.slice(1)).toEqual([
      { role: 'user', content: 'Count for me' },
      {
        role: 'assistant',
        content: 'One two',
        metadata: { interrupted: true, fullContent: ANSWER, heardMs: 95 },
      },
      { role: 'user', content: 'Stop' },
      { role: 'assistant', content: 'Sure.' },
    ])
  })

  it('words while the held answer is still produced: interrupted at once', async () => {
    // 280 ms of audio produced over about 420 ms: still going when the words come
    const { client, server } = await answering(['Count for me', 'Wait'], {
      tts: { chunkMs: 20, chunkDelayMs: 30 },
    })
    await client.waitFor((c) => c.count('audio') >= 2)
    const from = client.flow.length
    pauseAndSpeak(client, 20)
    await client.waitFor((c) => countAfter(c, from, 'Interrupt') === 1)
    const audioAtInterrupt = client.count('audio')
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle()
    // The rest of the cut answer never came; only the new answer's audio followed.
    expect(client.audioBytes()).toBeLessThan(ANSWER_BYTES)
    expect(client.count('audio')).toBeGreaterThan(audioAtInterrupt)
    expect(client.count('Resume')).toBe(0)
    // Nothing of it was heard (20 ms: not one word): it is not in the conversation.
    expect(server.agent.conversation.slice(1).map((item) => item.content)).toEqual([
      'Count for me',
      'Wait',
      'Sure.',
    ])
  })

  it('no verdict within resumeTimeoutMs: Interrupt', async () => {
    const { client } = await answering(['Count for me', { transcripts: 'Late', delayMs: 1000 }], {
      resumeTimeoutMs: 100,
    })
    await client.waitFor((c) => c.audioBytes() === ANSWER_BYTES)
    const from = client.flow.length
    pauseAndSpeak(client, 95)
    const stoppedAt = performance.now()
    await client.waitFor((c) => countAfter(c, from, 'Interrupt') === 1)
    expect(performance.now() - stoppedAt).toBeGreaterThanOrEqual(90)
    expect(performance.now() - stoppedAt).toBeLessThan(900)
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(client.texts('Message').at(-1)).toMatchObject({ item: { content: 'One two' } })
  })

  it('resumeAfterNoise: false, or nothing to hold: Interrupt at once, cancelled as usual', async () => {
    const { client } = await answering(['Count for me', ''], { resumeAfterNoise: false })
    await client.waitFor((c) => c.audioBytes() === ANSWER_BYTES)
    const from = client.flow.length
    pauseAndSpeak(client, 95)
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    await client.settle()
    expect(after(client, from)).toEqual(['Interrupt', 'Message:assistant', 'SkipAnswer'])
    expect(client.count('Resume')).toBe(0)
  })

  it('a Micdrop client (no Played): never gets Resume or Interrupt', async () => {
    const { client } = await answering(['Count for me', ''], {
      tts: { chunkMs: 20, chunkDelayMs: 20 },
      micdropClient: true,
    })
    await client.waitFor((c) => c.count('audio') >= 3)
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    await client.settle()
    expect(client.count('Resume') + client.count('Interrupt')).toBe(0)
    expect(client.audioBytes()).toBeLessThan(ANSWER_BYTES)
  })
})
