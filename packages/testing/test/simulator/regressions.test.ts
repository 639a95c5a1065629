import { describe, expect, it } from 'vitest'
import { formatFailure, simulateCall, type CallScript } from '../../src/simulator/index.js'

// The smallest scripts the property tests found (shrunk), one per rule a server broke, by name.
// Each must keep every invariant; a server that breaks the rule again fails it with the
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
  'an answer paused by its tool call is not over when its first part has played (message-late)': {
    latencyMs: 0,
    prebufferMs: 0,
    agent: {
      firstWordDelayMs: 800,
      answers: [{ text: 'Let me look 1.', tools: ['lookup'], then: 'Found it 1.' }],
    },
    steps: [{ say: 'sure', ms: 184 }, { waitFor: 'quiet' }, { say: 'is', ms: 445 }],
  },
  'a greeting sent before the client said Hello still waits for its Played (heard-mismatch)': {
    latencyMs: 150,
    prebufferMs: 0,
    server: { firstMessage: GREETING },
    agent: { answers: ['Answer 1: at fine the me a the that.'] },
    steps: [{ pause: 678 }, { cough: 337 }],
  },
  'a user message taken back before it went out is never sent (conversation-mismatch)': {
    latencyMs: 100,
    prebufferMs: 0,
    agent: {
      answers: [
        { text: 'Answer 1: two weather that can can for the.', delayMs: 800 },
        { tools: ['ignore_user_noise'] },
      ],
    },
    steps: [
      { say: 'fine', ms: 1727 },
      { waitFor: 'speech', thenMs: 41 },
      {
        say: 'today today today and for',
        ms: 2359,
        stt: { pieces: [{ text: 'today today today and for', afterMs: 800 }] },
      },
      { pause: 1234 },
      { hangUp: true },
    ],
  },
  'audio of a cut answer still on its way is not played after a short cough (heard-mismatch)': {
    latencyMs: 150,
    prebufferMs: 0,
    agent: { answers: [{ text: 'Answer 1: please and.', delayMs: 800 }] },
    tts: { chunkDelayMs: 75 },
    steps: [{ say: 'me', ms: 182 }, { pause: 994 }, { cough: 156 }],
  },
  'a pause sent before the Interrupt of the one before holds what came after it (heard-mismatch)': {
    latencyMs: 150,
    prebufferMs: 0,
    agent: { answers: ['Answer 2: book eight weather fine we a can the me eight.'] },
    stt: { transcriptEnd: false },
    steps: [
      { say: 'hold', ms: 236 },
      { waitFor: 'speech', thenMs: 527 },
      { say: 'we a book fine tomorrow on', ms: 2224 },
      { pause: 377 },
      { cough: 354 },
    ],
  },
  'a hang-up keeps what was heard until the hang-up (heard-mismatch)': {
    latencyMs: 0,
    prebufferMs: 60,
    agent: {
      wordDelayMs: 20,
      answers: ['Answer 2: at tomorrow let on at tomorrow table sure we hold two that hold book.'],
    },
    tts: { chunkMs: 50, chunkDelayMs: 50 },
    steps: [{ say: 'the can', ms: 878 }, { pause: 622 }, { hangUp: true }],
  },
  'with a slow store, a frame waits only for the records before it (message-late)': {
    latencyMs: 0,
    prebufferMs: 60,
    agent: { answers: [{ tools: ['end_call'], then: 'Bye now 2.' }] },
    stt: { transcriptEnd: false },
    steps: [
      { say: 'eight', ms: 156 },
      { say: 'the', ms: 199 },
    ],
    store: { appendDelayMs: 300 },
  },
  "a cough after the agent took back the user's words gets SkipAnswer (stuck)": {
    client: 'openmic',
    latencyMs: 5,
    prebufferMs: 60,
    agent: { answers: ['Answer 1: fine a and.', { tools: ['ignore_user_noise'] }] },
    stt: { transcriptEnd: false },
    tts: { firstAudioDelayMs: 500 },
    steps: [
      {
        say: 'a me the is',
        ms: 1181,
        stt: {
          pieces: [
            { text: 'a me', afterMs: 0 },
            { text: 'the is book check two book', afterMs: 2000 },
          ],
        },
      },
      { waitFor: 'speech', thenMs: 1430 },
      { cough: 138 },
    ],
  },
  'words of a slow transcript wait behind an answer that already went out (answered-twice, heard-mismatch)':
    {
      client: 'openmic',
      latencyMs: 0,
      prebufferMs: 0,
      server: { transcriptTimeoutMs: 1000 },
      agent: {
        answers: [{ text: 'Answer 1: please at table please on today weather me.', delayMs: 800 }],
      },
      steps: [
        { say: 'eight', ms: 156 },
        { mute: true },
        { waitFor: 'quiet' },
        { say: 'can', ms: 1113, stt: { pieces: [{ text: 'can me eight', afterMs: 2000 }] } },
      ],
    },
  'a transcript later than transcriptTimeoutMs is still answered, after its SkipAnswer (extra-skip-answer)':
    {
      client: 'openmic',
      latencyMs: 0,
      prebufferMs: 0,
      server: { transcriptTimeoutMs: 1000 },
      agent: { answers: [{ tools: ['ignore_user_noise'], delayMs: 2000 }] },
      steps: [
        {
          say: 'that',
          ms: 149,
          stt: { pieces: [{ text: 'that for me a sure hold', afterMs: 2000 }] },
        },
      ],
    },
  'no turn is answered once EndCall went (end-call-early)': {
    client: 'openmic',
    latencyMs: 0,
    prebufferMs: 0,
    agent: { answers: [{ text: 'Goodbye 1.', tools: ['end_call'] }] },
    stt: { transcriptEnd: false },
    steps: [
      {
        say: 'book',
        ms: 130,
        stt: {
          pieces: [
            { text: 'book a', afterMs: 50 },
            { text: 'let hold book', afterMs: 100 },
          ],
        },
      },
    ],
  },
  'no turn is answered once EndCall went, even held behind a slow store (end-call-early)': {
    client: 'micdrop',
    latencyMs: 20,
    prebufferMs: 0,
    agent: { answers: [{ text: 'Goodbye 1.', tools: ['end_call'] }] },
    steps: [
      { cough: 530, stt: { pieces: [{ text: 'Hmm' }] } },
      { waitFor: 'quiet', thenMs: 100 },
      { say: 'hold', ms: 796 },
    ],
    store: { appendDelayMs: 300 },
  },
  'an answer whose TTS failed keeps what was heard of it in its place (answered-twice, heard-mismatch)':
    {
      client: 'openmic',
      latencyMs: 0,
      prebufferMs: 60,
      agent: {
        wordDelayMs: 20,
        answers: [
          'Answer 1: and let two on two is sure.',
          'Answer 2: weather let we a fine fine please for today please table weather two.',
        ],
      },
      stt: { transcriptEnd: false },
      tts: { firstAudioDelayMs: 50, failures: [{ speak: 2, afterChunks: 3 }] },
      steps: [
        {
          say: 'let',
          ms: 118,
          stt: {
            pieces: [
              { text: 'let', afterMs: 0 },
              { text: 'let', afterMs: 400 },
            ],
          },
        },
        { waitFor: 'speech', thenMs: 650 },
        { cough: 560, stt: { pieces: [{ text: 'Hmm' }] } },
      ],
    },
  'a skip cut before it went out is sent when the turn ends without more words (stuck)': {
    client: 'openmic',
    latencyMs: 0,
    prebufferMs: 0,
    agent: {
      answers: [
        { tools: ['semantic_turn'] },
        'Answer 2: sure two eight hold is weather me let.',
        { tools: ['semantic_turn'] },
      ],
    },
    stt: { transcriptEnd: false },
    steps: [
      { say: 'two', ms: 415 },
      { say: 'table', ms: 1215 },
      { say: 'for today', ms: 450 },
      { pause: 11 },
      { say: 'can two let eight eight hold', ms: 787, stt: { pieces: [{ text: '' }] } },
    ],
  },
  "EndCall after a Micdrop client's barge-in waits for the audio on its way (end-call-early)": {
    client: 'micdrop',
    latencyMs: 150,
    prebufferMs: 0,
    agent: { answers: [{ tools: ['end_call'], then: 'Bye now 1.' }] },
    stt: { transcriptEnd: false },
    steps: [
      {
        say: 'on',
        ms: 131,
        stt: {
          pieces: [
            { text: 'on fine hold at table two sure', afterMs: 50 },
            { text: 'we', afterMs: 100 },
          ],
        },
      },
      { pause: 447 },
      { cough: 115 },
    ],
  },
  'a model stream that breaks while a failing TTS takes its text keeps one message (answered-twice)':
    {
      client: 'micdrop',
      latencyMs: 0,
      prebufferMs: 0,
      agent: {
        answers: [
          {
            text: 'Answer 1: that that the please hold that fine please sure at a.',
            error: 'Scripted agent failure',
          },
        ],
      },
      tts: { failures: [{ speak: 1, afterChunks: 1 }] },
      steps: [{ say: 'let', ms: 146 }],
    },
  'speaking again during a pause holds the same answer, and a Resume settles each barge-in (audio-after-barge-in)':
    {
      client: 'openmic',
      latencyMs: 0,
      prebufferMs: 0,
      agent: {
        wordDelayMs: 60,
        answers: [
          'Answer 1: can please me can hold fine weather book.',
          {
            text: 'Answer 2: the can let for eight tomorrow sure at let let at a today eight.',
            delayMs: 800,
          },
          { tools: ['ignore_user_noise'] },
        ],
      },
      steps: [
        { cough: 462, stt: { pieces: [{ text: 'Hmm' }] } },
        { pause: 91 },
        {
          say: 'book on',
          ms: 1862,
          stt: {
            pieces: [
              { text: 'book', afterMs: 0 },
              { text: 'on', afterMs: 900 },
            ],
          },
        },
        { pause: 1350 },
        { say: 'on and fine', ms: 586, stt: { pieces: [{ text: 'on and fine', afterMs: 300 }] } },
      ],
    },
  'a Micdrop client plays audio on its way after a short cough: the conversation keeps what the server could know (heard-mismatch)':
    {
      client: 'micdrop',
      latencyMs: 150,
      prebufferMs: 0,
      agent: {
        firstWordDelayMs: 300,
        answers: [
          'Answer 1: at two fine the tomorrow me for hold please please eight table is.',
          'Answer 2: on a.',
          { text: 'Answer 3: that for book on eight hold sure.', delayMs: 800 },
          'Answer 4: check at at on at eight on.',
        ],
      },
      stt: { transcriptEnd: false },
      steps: [
        { say: 'that', ms: 1032 },
        { say: 'for can today', ms: 947 },
        { pause: 1400 },
        {
          say: 'eight hold',
          ms: 855,
          stt: {
            pieces: [
              { text: 'eight', afterMs: 0 },
              { text: 'hold', afterMs: 900 },
            ],
          },
        },
        { waitFor: 'quiet', thenMs: 100 },
        { cough: 157 },
      ],
    },
  "a slow store does not hold a turn's SkipAnswer into the next turn (extra-skip-answer)": {
    client: 'openmic',
    latencyMs: 0,
    prebufferMs: 0,
    agent: { answers: [{ tools: ['ignore_user_noise'] }] },
    steps: [{ say: 'eight', ms: 1039 }, { pause: 367 }, { cough: 84 }],
    store: { appendDelayMs: 300 },
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

  it('an STT failing an earlier utterance leaves the one spoken now to its own transcript, answered once', async () => {
    const script: CallScript = {
      latencyMs: 0,
      prebufferMs: 0,
      agent: { answers: ['Sure.'] },
      steps: [
        // Its failure comes while the user says the next words
        {
          say: 'eight',
          ms: 113,
          stt: { failAfterMs: 200, pieces: [{ text: 'eight', afterMs: 300 }] },
        },
        { say: 'two check', ms: 1177, stt: { pieces: [{ text: 'two check', afterMs: 500 }] } },
      ],
    }
    const result = await simulateCall(script)
    expect(result.violations, formatFailure(script, result)).toEqual([])
    // Not a SkipAnswer at StopSpeaking, then an answer once the words come: only the call's first
    const skips = result.timeline.filter((entry) => entry.what === '→ SkipAnswer')
    expect(skips, formatFailure(script, result)).toHaveLength(1)
    expect(result.conversation.agent.map((item) => item.content)).toEqual(['two check', 'Sure.'])
  })

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
