import { createFakeGradiumSTT, createFakeGradiumTTS } from '@openmic/testing'
import {
  describeSTTConformance,
  describeTTSConformance,
  scriptFakeSTT,
} from '@openmic/testing/conformance'
import { GradiumSTT, GradiumTTS } from '../src/index.js'

const STALL_MS = 300

describeSTTConformance('GradiumSTT', {
  partials: true,
  reconnects: true,
  stallTimeoutMs: STALL_MS,
  make: async () => {
    const fake = await createFakeGradiumSTT()
    return {
      stt: new GradiumSTT({
        apiKey: 'test-key',
        baseURL: fake.baseURL,
        transcriptionTimeoutMs: STALL_MS,
      }),
      // Gradium sends each new segment: what each partial adds, then the rest of the text.
      ...scriptFakeSTT(fake, ({ transcript, partials, deltas }) => {
        const rest = transcript.slice(partials.at(-1)?.length ?? 0)
        const segments = [...deltas, rest].map((segment) => segment.trim()).filter(Boolean)
        fake.replyTranscript(transcript, { segments })
      }),
      teardown: () => fake.close(),
    }
  },
})

describeTTSConformance('GradiumTTS', {
  words: true,
  stallTimeoutMs: STALL_MS,
  make: async () => {
    const fake = await createFakeGradiumTTS()
    return {
      tts: new GradiumTTS({
        apiKey: 'test-key',
        voiceId: 'test-voice',
        baseURL: fake.baseURL,
        stallTimeoutMs: STALL_MS,
      }),
      next: (speak) => {
        fake.clearReplies()
        if (speak.kind === 'failure') fake.reply({ kind: 'error', message: 'Scripted failure' })
        if (speak.kind === 'stall') fake.reply({ kind: 'stall' })
      },
      teardown: () => fake.close(),
    }
  },
})
