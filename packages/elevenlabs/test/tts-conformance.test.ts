import { createFakeElevenLabsTTS } from '@openmic/testing'
import { describeTTSConformance } from '@openmic/testing/conformance'
import { ElevenLabsTTS } from '../src/index.js'

const STALL_TIMEOUT_MS = 500

describeTTSConformance('ElevenLabsTTS', {
  words: true,
  stallTimeoutMs: STALL_TIMEOUT_MS,
  make: async () => {
    const fake = await createFakeElevenLabsTTS({ apiKey: 'xi-test' })
    return {
      tts: new ElevenLabsTTS({
        apiKey: 'xi-test',
        voiceId: 'voice-1',
        baseURL: fake.baseURL,
        stallTimeoutMs: STALL_TIMEOUT_MS,
      }),
      next: ({ kind }) => {
        if (kind === 'failure') fake.replyError('Scripted failure', { error: 'input_error' })
        else if (kind === 'stall') fake.replyStall()
        else fake.replySpeech({ chunkDelayMs: 5 })
      },
      teardown: () => fake.close(),
    }
  },
})
