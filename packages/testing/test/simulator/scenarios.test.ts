import type { MicdropConversationItem } from '@openmic/core/protocol'
import { describe, expect, it } from 'vitest'
import { formatFailure, simulateCall, type CallScript } from '../../src/simulator/index.js'

// Scripted calls a user relies on, for both clients, checked against the target rules of
// docs/protocol.md: each must keep every invariant. Where today's server does not implement a
// rule yet, the test fails with the violation (and the replayable script) in its message.

const LONG_ANSWER = 'Here is a long answer with quite a few words so that it takes a while to say.'
const GREETING = 'Hello, thanks for calling, this is the assistant, what can I do for you today?'

/** Runs the call and expects it to keep every invariant; returns the result. */
async function expectClean(script: CallScript) {
  const result = await simulateCall(script)
  expect(result.violations, formatFailure(script, result)).toEqual([])
  return result
}

/**
 * The user books a table, the STT gives the words in two pieces (text, ms after the end of the
 * audio), with or without `TranscriptEnd` (a grace of 300 ms then).
 */
function booking(
  client: 'openmic' | 'micdrop',
  transcriptEnd: boolean,
  first: [string, number],
  second: [string, number],
  answers: string[]
): CallScript {
  const pieces = [first, second].map(([text, afterMs]) => ({ text, afterMs }))
  return {
    client,
    stt: { transcriptEnd },
    server: { transcriptGraceMs: transcriptEnd ? undefined : 300 },
    agent: { answers },
    steps: [{ say: 'book a table for two', ms: 1200, stt: { pieces } }, { waitFor: 'quiet' }],
  }
}

/** Roles and texts of a conversation, in order. */
const shape = (items: MicdropConversationItem[]) =>
  items.map((item) =>
    'toolName' in item
      ? `${item.role}: ${item.toolName}`
      : `${item.role}${item.metadata?.interrupted ? ' (cut)' : ''}: ${item.content}`
  )

describe.each(['openmic', 'micdrop'] as const)('with the %s client', (client) => {
  it('the greeting interrupted: it keeps what was heard, flagged, and the user is answered', async () => {
    const result = await expectClean({
      client,
      server: { firstMessage: GREETING },
      agent: { answers: ['Sure, I can help with that.'] },
      steps: [
        { waitFor: 'speech', thenMs: 500 },
        { say: 'I want to book a table', ms: 1200 },
        { waitFor: 'quiet' },
      ],
    })
    expect(shape(result.conversation.agent)).toEqual([
      expect.stringMatching(/^assistant \(cut\): Hello, thanks for calling/),
      'user: I want to book a table',
      'assistant: Sure, I can help with that.',
    ])
  })

  it('a barge-in mid-answer: the answer is cut where it was heard, the new words answered', async () => {
    const result = await expectClean({
      client,
      agent: { answers: [LONG_ANSWER, 'Okay, stopping.'] },
      tts: { chunkMs: 50, chunkDelayMs: 40 },
      steps: [
        { say: 'tell me something', ms: 900 },
        { waitFor: 'speech', thenMs: 400 },
        { say: 'stop there', ms: 600 },
        { waitFor: 'quiet' },
      ],
    })
    expect(shape(result.conversation.agent)).toEqual([
      'user: tell me something',
      expect.stringMatching(/^assistant \(cut\): Here is/),
      'user: stop there',
      'assistant: Okay, stopping.',
    ])
  })

  for (const { transcriptEnd, laterMs, how } of [
    { transcriptEnd: true, laterMs: 200, how: 'with TranscriptEnd' },
    { transcriptEnd: false, laterMs: 150, how: 'without TranscriptEnd (joined within the grace)' },
  ]) {
    it(`the transcript in pieces, ${how}: one user message, one answer`, async () => {
      const result = await expectClean(
        booking(
          client,
          transcriptEnd,
          ['book a', 0],
          ['table for two', laterMs],
          ['A table for two, done.']
        )
      )
      expect(shape(result.conversation.agent)).toEqual([
        'user: book a table for two',
        'assistant: A table for two, done.',
      ])
    })
  }

  it('a piece later than the grace, once the answer was heard: answered after it', async () => {
    const result = await expectClean(
      booking(client, false, ['book a table', 0], ['for two', 1500], ['Sure.', 'For two, noted.'])
    )
    expect(shape(result.conversation.agent)).toEqual([
      'user: book a table',
      'assistant: Sure.',
      'user: for two',
      'assistant: For two, noted.',
    ])
  })

  it('a slow STT: the answer waits for the transcript', async () => {
    const result = await expectClean({
      client,
      agent: { answers: ['It is noon.'] },
      steps: [
        {
          say: 'what time is it',
          ms: 900,
          stt: { pieces: [{ text: 'what time is it', afterMs: 2500 }] },
        },
        { waitFor: 'quiet' },
      ],
    })
    expect(shape(result.conversation.agent)).toEqual([
      'user: what time is it',
      'assistant: It is noon.',
    ])
  })

  it('a failing agent: SkipAnswer, the user message stays unanswered', async () => {
    const result = await expectClean({
      client,
      agent: { answers: [{ error: 'model down' }] },
      steps: [{ say: 'hello there', ms: 700 }, { waitFor: 'quiet' }],
    })
    expect(shape(result.conversation.agent)).toEqual(['user: hello there'])
  })

  it('a TTS failing midway: the answer keeps what was heard, flagged', async () => {
    const result = await expectClean({
      client,
      agent: { answers: [LONG_ANSWER] },
      tts: { chunkMs: 100, failures: [{ speak: 1, afterChunks: 3 }] },
      steps: [{ say: 'tell me something', ms: 900 }, { waitFor: 'quiet' }],
    })
    expect(shape(result.conversation.agent)).toEqual([
      'user: tell me something',
      expect.stringMatching(/^assistant \(cut\): Here is/),
    ])
  })

  it('end_call: the goodbye is heard, then the client hangs up', async () => {
    const result = await expectClean({
      client,
      agent: { answers: [{ text: 'Goodbye and have a lovely day.', tools: ['end_call'] }] },
      steps: [{ say: 'that is all, bye', ms: 900 }, { waitFor: 'quiet' }],
    })
    expect(result.closeCode).toBe(1000)
    expect(result.answers[0]!.playedMs).toBe(result.answers[0]!.audioMs)
  })

  it('mute mid-answer: the answer stops, nothing answers the muted turn until the user speaks', async () => {
    const result = await expectClean({
      client,
      agent: { answers: [LONG_ANSWER, 'Welcome back.'] },
      tts: { chunkMs: 50, chunkDelayMs: 40 },
      steps: [
        { say: 'tell me something', ms: 900 },
        { waitFor: 'speech', thenMs: 400 },
        { mute: true },
        { pause: 2000 },
        { say: 'I am back', ms: 700 },
        { waitFor: 'quiet' },
      ],
    })
    expect(shape(result.conversation.agent)).toEqual([
      'user: tell me something',
      expect.stringMatching(/^assistant \(cut\): Here is/),
      'user: I am back',
      'assistant: Welcome back.',
    ])
  })

  it('a hang-up mid-answer: the call ends with what was heard', async () => {
    const result = await expectClean({
      client,
      agent: { answers: [LONG_ANSWER] },
      tts: { chunkMs: 50, chunkDelayMs: 40 },
      steps: [
        { say: 'tell me something', ms: 900 },
        { waitFor: 'speech', thenMs: 400 },
        { hangUp: true },
      ],
    })
    expect(shape(result.conversation.agent)).toEqual([
      'user: tell me something',
      expect.stringMatching(/^assistant \(cut\): Here is/),
    ])
    expect(result.conversation.store).toEqual(result.conversation.agent)
  })
})

describe('with the openmic client', () => {
  it('a cough during an answer: the answer pauses, then plays on whole', async () => {
    const result = await expectClean({
      client: 'openmic',
      agent: { answers: [LONG_ANSWER] },
      tts: { chunkMs: 50, chunkDelayMs: 40 },
      steps: [
        { say: 'tell me something', ms: 900 },
        { waitFor: 'speech', thenMs: 400 },
        { cough: 250 },
        { waitFor: 'quiet' },
      ],
    })
    expect(result.answers[0]!.playedMs).toBe(result.answers[0]!.audioMs)
    expect(shape(result.conversation.agent)).toEqual([
      'user: tell me something',
      `assistant: ${LONG_ANSWER}`,
    ])
  })
})
