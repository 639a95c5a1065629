import { describe, expect, it } from 'vitest'
import { formatFailure, simulateCall, type CallScript } from '../../src/simulator/index.js'

// The smallest scripts the property tests found (shrunk), one per rule today's server breaks, by
// name. Each must keep every invariant; until the server implements the rule, it fails with the
// violation, the timeline and the script in its message.

const GREETING = 'Hello, this is the assistant, how can I help you today?'
const LONG =
  'Here is a long answer with quite a few words so that it takes a while to say, and then some more words after that, and more again until the end.'

const regressions: Record<string, CallScript> = {
  'the greeting is cut where the user interrupted it (heard-mismatch)': {
    latencyMs: 20,
    prebufferMs: 0,
    server: { firstMessage: GREETING },
    agent: { answers: ['Sure.'] },
    steps: [
      { waitFor: 'speech', thenMs: 200 },
      { say: 'let', ms: 104 },
    ],
  },
  'a TTS failing midway cuts the answer to what was heard (heard-mismatch, message-late)': {
    latencyMs: 0,
    prebufferMs: 0,
    agent: { answers: ['Answer 1: on weather a for can for weather weather.'] },
    tts: { failures: [{ speak: 1, afterChunks: 2 }] },
    steps: [{ say: 'fine', ms: 117 }],
  },
  'audio held by a slow store is not sent after the barge-in (audio-after-barge-in)': {
    latencyMs: 20,
    prebufferMs: 0,
    server: { firstMessage: GREETING },
    agent: { answers: ['Fine.'] },
    steps: [{ cough: 276 }],
    store: { appendDelayMs: 300 },
  },
  'EndCall waits for the goodbye that a slow store held back (end-call-early)': {
    latencyMs: 0,
    prebufferMs: 0,
    agent: { answers: [{ tools: ['end_call'], then: 'Bye now 1.' }] },
    steps: [{ say: 'a', ms: 150 }],
    store: { appendDelayMs: 50 },
  },
  'a late transcript piece is sent after the answer it came behind (conversation-mismatch)': {
    latencyMs: 0,
    prebufferMs: 0,
    agent: { answers: ['Answer 1: we the hold sure is we book check the at and hold can.'] },
    stt: { transcriptEnd: false },
    steps: [
      {
        say: 'a',
        ms: 136,
        stt: {
          pieces: [
            { text: 'a', afterMs: 0 },
            { text: 'that tomorrow a me', afterMs: 400 },
          ],
        },
      },
    ],
  },
  'a message whose answer was cut before the agent saved it is not answered again (answered-twice)':
    {
      client: 'micdrop',
      latencyMs: 0,
      prebufferMs: 0,
      agent: {
        wordDelayMs: 20,
        answers: [
          'Answer 2: book today fine today weather check sure a for and book we eight that.',
        ],
      },
      steps: [
        { say: 'sure', ms: 126 },
        { pause: 115 },
        { say: 'hold', ms: 163, stt: { pieces: [{ text: '' }] } },
      ],
    },
  'an answer of two model calls keeps what was heard of each (heard-mismatch)': {
    latencyMs: 0,
    prebufferMs: 0,
    agent: {
      answers: [
        {
          text: 'Let me look.',
          tools: ['lookup'],
          then: 'Found it, the table is free tonight.',
          delayMs: 500,
        },
        'Okay.',
      ],
    },
    steps: [
      { say: 'is there a table', ms: 800 },
      { waitFor: 'speech', thenMs: 50 },
      { say: 'stop', ms: 300 },
      { waitFor: 'quiet' },
    ],
  },
  'the next answer is not held behind a cut one (message-late)': {
    latencyMs: 0,
    prebufferMs: 0,
    agent: { answers: [LONG, 'Okay.'] },
    steps: [
      { say: 'tell me', ms: 500 },
      { waitFor: 'speech', thenMs: 300 },
      { say: 'stop', ms: 400 },
      { waitFor: 'quiet' },
    ],
  },
  'a barge-in within latency + prebuffer of the end keeps what was heard (heard-mismatch)': {
    latencyMs: 100,
    prebufferMs: 120,
    agent: { answers: ['Answer 1: check and let that.'] },
    steps: [
      { say: 'me', ms: 147 },
      { waitFor: 'speech', thenMs: 84 },
      { say: 'check', ms: 146 },
    ],
  },
  'the Micdrop client gets the Message when the answer starts playing (message-late)': {
    client: 'micdrop',
    latencyMs: 0,
    prebufferMs: 0,
    agent: { answers: [LONG] },
    steps: [{ say: 'tell me', ms: 500 }, { waitFor: 'quiet' }],
  },
}

describe('regressions found by the random calls', () => {
  for (const [name, script] of Object.entries(regressions)) {
    it(name, async () => {
      const result = await simulateCall(script)
      expect(result.violations, formatFailure(script, result)).toEqual([])
    })
  }

  it('the server answers Hello, so the openmic client pauses at a cough and the answer plays whole', async () => {
    const script: CallScript = {
      latencyMs: 0,
      prebufferMs: 0,
      agent: { answers: [LONG] },
      tts: { chunkMs: 50, chunkDelayMs: 40 },
      steps: [
        { say: 'tell me', ms: 500 },
        { waitFor: 'speech', thenMs: 300 },
        { cough: 200 },
        { waitFor: 'quiet' },
      ],
    }
    const result = await simulateCall(script)
    const [answer] = result.answers
    expect(answer!.playedMs, formatFailure(script, result)).toBe(answer!.audioMs)
  })
})
