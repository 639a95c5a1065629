import {
  createFakeMistralRealtime,
  createFakeMistralSpeech,
  float32Sine,
  speechResponse,
} from '@openmic/testing'
import {
  describeSTTConformance,
  describeTTSConformance,
  scriptFakeSTT,
} from '@openmic/testing/conformance'
import { MistralSTT, MistralTTS } from '../src/index.js'

const STALL_MS = 300

describeSTTConformance('MistralSTT', {
  partials: true,
  reconnects: true,
  stallTimeoutMs: STALL_MS,
  make: async () => {
    const fake = await createFakeMistralRealtime()
    return {
      stt: new MistralSTT({
        apiKey: 'test-key',
        serverURL: fake.serverURL,
        transcriptionTimeoutMs: STALL_MS,
      }),
      // Mistral sends what each partial adds.
      ...scriptFakeSTT(fake, ({ transcript, deltas }) =>
        fake.replyTranscript(transcript, { deltas })
      ),
      teardown: () => fake.close(),
    }
  },
})

describeTTSConformance('MistralTTS', {
  stallTimeoutMs: STALL_MS,
  make: async () => {
    // Every sentence gets 200 ms of speech unless something else is scripted.
    const fallback = speechResponse(float32Sine(4800, 300), { chunks: 4, chunkDelayMs: 5 })
    const fake = await createFakeMistralSpeech({ fallback })
    return {
      tts: new MistralTTS({
        apiKey: 'test-key',
        serverURL: fake.serverURL,
        stallTimeoutMs: STALL_MS,
      }),
      next: (speak) => {
        fake.reset()
        if (speak.kind === 'failure') fake.replyError(500, { message: 'Scripted failure' })
        if (speak.kind === 'stall') fake.replyStall()
      },
      teardown: () => fake.close(),
    }
  },
})
