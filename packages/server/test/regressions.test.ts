import {
  MockAgent,
  MockSTT,
  MockTTS,
  type MicdropConversationItem,
  type MicdropConversationMessage,
} from '@openmic/core'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import { describe, expect, it } from 'vitest'
import { closeAfterEach, finalItems, startMockCall, until } from './harness.js'

// Bugs measured on the previous design, each through a raw `ws` client that reports no playback
// (as Micdrop's own browser client): the server can only estimate what it played.

const cleanup = closeAfterEach()

/** A long answer: 600 characters, 6 s of MockTTS audio, all produced at once. */
const LONG = 'This answer goes on and on. '.repeat(21).trim() + '.'
const LONG_MS = LONG.length * 10

const assistants = (items: MicdropConversationItem[]) =>
  items.filter((item): item is MicdropConversationMessage => item.role === 'assistant')

describe('regressions', () => {
  it('after a barge-in, the next answer is not held behind what the cut one would have played', async () => {
    const { client, server } = await startMockCall(cleanup, () => ({
      agent: new MockAgent({ answers: [LONG, 'Hi there.'] }),
      stt: new MockSTT({ utterances: ['Tell me a long story', 'Hello'] }),
      tts: new MockTTS(),
    }))
    const kept = finalItems(server)
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    await client.waitFor((c) => c.audioBytes() === LONG_MS * 32)
    await new Promise((resolve) => setTimeout(resolve, 300)) // the client plays it meanwhile
    const bargedInAt = performance.now()
    client.utterance()
    await until(() => assistants(kept).length === 2)
    // The second answer is 90 ms of audio: it is final long before the first one's 6 s would
    // have played (before the fix: at about 6 s)
    expect(performance.now() - bargedInAt).toBeLessThan(LONG_MS / 2)
    expect(assistants(kept)[0]).toMatchObject({ metadata: { interrupted: true } })
    expect(assistants(kept)[0]!.metadata!.heardMs).toBeLessThan(LONG_MS / 2)
    expect(assistants(kept)[1]).toEqual({ role: 'assistant', content: 'Hi there.' })
  })

  it('"goodbye" said over the greeting ends the call once the goodbye was heard, not the greeting', async () => {
    const { client, server } = await startMockCall(cleanup, () => ({
      agent: new MockAgent({
        autoEndCall: true,
        answers: [{ text: 'Goodbye!', toolCalls: [{ name: 'end_call' }] }, ''],
      }),
      stt: new MockSTT({ utterances: ['Goodbye'] }),
      tts: new MockTTS(),
      firstMessage: LONG,
    }))
    await client.waitFor((c) => c.audioBytes() === LONG_MS * 32)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const bargedInAt = performance.now()
    client.utterance()
    await client.waitFor((c) => c.count('EndCall') === 1)
    // 80 ms of goodbye (before the fix: when the 6 s greeting would have ended)
    expect(performance.now() - bargedInAt).toBeLessThan(LONG_MS / 2)
    expect(client.log.lastIndexOf('audio')).toBeLessThan(client.log.indexOf('EndCall'))
    // The greeting the caller talked over keeps what was heard of it
    expect(server.agent.conversation[1]).toMatchObject({
      role: 'assistant',
      metadata: { interrupted: true, fullContent: LONG },
    })
  })

  it('an interrupted greeting keeps the words that were played, flagged interrupted', async () => {
    const { client, server } = await startMockCall(cleanup, () => ({
      stt: new MockSTT({ utterances: ['Sorry?'] }),
      tts: new MockTTS({ chunkMs: 20, chunkDelayMs: 20 }),
      firstMessage: LONG,
    }))
    const kept = finalItems(server)
    await client.waitFor((c) => c.count('audio') >= 10) // about 200 ms played
    client.utterance()
    await until(() => assistants(kept).length === 2)
    const greeting = assistants(kept)[0]!
    expect(greeting.metadata).toMatchObject({ interrupted: true, fullContent: LONG })
    expect(greeting.content.length).toBeGreaterThan(0)
    expect(LONG.startsWith(greeting.content)).toBe(true)
    expect(server.agent.conversation.slice(1, 3)).toEqual([greeting, kept[1]])
  })

  it('an STT without TranscriptEnd: the user message goes at once and the answer starts with it', async () => {
    const graceMs = 1000
    const { client, server } = await startMockCall(cleanup, () => ({
      // A model slower than the grace: the wait for a late piece costs nothing
      agent: new MockAgent({ answers: ['Sure.'], firstWordDelayMs: 1500 }),
      stt: new MockSTT({ utterances: ['Hello'], transcriptEnd: false }),
      tts: new MockTTS(),
      transcriptGraceMs: graceMs,
    }))
    const metrics = new Promise<MicdropTurnMetrics>((resolve) => server.on('Metrics', resolve))
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    client.utterance()
    const stoppedAt = performance.now()
    await client.waitFor((c) => c.count('Message:user') === 1)
    // Before the fix, the message waited for the whole grace
    expect(performance.now() - stoppedAt).toBeLessThan(graceMs / 2)
    const turn = await metrics
    // The answer was asked for at the transcript, not after the grace (before the fix: this
    // difference was the grace)
    expect(turn.endToEndMs! - turn.agentFirstTextMs!).toBeLessThan(graceMs / 2)
  })
})
