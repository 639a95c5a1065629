import { createFakeOpenaiRealtime } from '@openmic/testing'
import { describeSTTConformance, scriptFakeSTT } from '@openmic/testing/conformance'
import { OpenaiSTT } from '../src/index.js'

const STALL_TIMEOUT_MS = 300

describeSTTConformance('OpenaiSTT', {
  partials: true,
  reconnects: true,
  stallTimeoutMs: STALL_TIMEOUT_MS,
  make: async () => {
    const fake = await createFakeOpenaiRealtime({ apiKey: 'sk-test' })
    return {
      stt: new OpenaiSTT({
        apiKey: 'sk-test',
        baseURL: fake.baseURL,
        transcriptionTimeoutMs: STALL_TIMEOUT_MS,
      }),
      // The API sends what each partial adds.
      ...scriptFakeSTT(fake, ({ transcript, deltas }) =>
        fake.replyTranscript(transcript, { partials: deltas })
      ),
      teardown: () => fake.close(),
    }
  },
})
