import { createFakeCartesiaSTT, createFakeCartesiaTTS } from '@openmic/testing'
import {
  describeSTTConformance,
  describeTTSConformance,
  scriptFakeSTT,
} from '@openmic/testing/conformance'
import { CartesiaSTT, CartesiaTTS } from '../src/index.js'

const STALL_MS = 300

describeSTTConformance('CartesiaSTT', {
  partials: true,
  reconnects: true,
  stallTimeoutMs: STALL_MS,
  make: async () => {
    const fake = await createFakeCartesiaSTT()
    return {
      stt: new CartesiaSTT({
        apiKey: 'test-key',
        baseURL: fake.baseURL,
        transcriptionTimeoutMs: STALL_MS,
      }),
      ...scriptFakeSTT(fake, ({ transcript, partials }) => {
        // Two final pieces: the class must join them into one Transcript.
        const cut = transcript.indexOf(' ') + 1
        const finals = cut > 0 ? [transcript.slice(0, cut), transcript.slice(cut)] : [transcript]
        fake.replyTranscript(transcript, { partials, finals })
      }),
      teardown: () => fake.close(),
    }
  },
})

describeTTSConformance('CartesiaTTS', {
  words: true,
  stallTimeoutMs: STALL_MS,
  make: async () => {
    const fake = await createFakeCartesiaTTS()
    return {
      tts: new CartesiaTTS({
        apiKey: 'test-key',
        voiceId: 'test-voice',
        baseURL: fake.baseURL,
        stallTimeoutMs: STALL_MS,
      }),
      next: (speak) => {
        fake.resetReplies()
        if (speak.kind === 'failure') fake.replyError('Scripted failure', { status: 500 })
        if (speak.kind === 'stall') fake.replyStall()
      },
      teardown: () => fake.close(),
    }
  },
})
