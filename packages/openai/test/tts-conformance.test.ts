import { createFakeOpenaiSpeech } from '@openmic/testing'
import { describeTTSConformance } from '@openmic/testing/conformance'
import { OpenaiTTS } from '../src/index.js'

const STALL_TIMEOUT_MS = 500

describeTTSConformance('OpenaiTTS', {
  stallTimeoutMs: STALL_TIMEOUT_MS,
  make: async () => {
    const fake = await createFakeOpenaiSpeech()
    return {
      tts: new OpenaiTTS({
        apiKey: 'sk-test',
        baseURL: fake.baseURL,
        stallTimeoutMs: STALL_TIMEOUT_MS,
      }),
      // Every request of the speak() answers the same way: a wrong key is refused for all.
      next: ({ kind }) => {
        fake.defaultReply =
          kind === 'failure'
            ? { type: 'error', status: 401 }
            : kind === 'stall'
              ? { type: 'stall' }
              : { type: 'audio', chunkDelayMs: 5 }
      },
      teardown: () => fake.close(),
    }
  },
})
