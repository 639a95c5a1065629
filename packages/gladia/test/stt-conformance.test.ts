import { createFakeGladiaLive } from '@openmic/testing'
import { describeSTTConformance, scriptFakeSTT } from '@openmic/testing/conformance'
import { GladiaSTT } from '../src/index.js'

const STALL_MS = 300

describeSTTConformance('GladiaSTT', {
  partials: true,
  reconnects: true,
  stallTimeoutMs: STALL_MS,
  make: async () => {
    const fake = await createFakeGladiaLive()
    return {
      stt: new GladiaSTT({
        apiKey: 'test-key',
        baseURL: fake.baseURL,
        transcriptionTimeoutMs: STALL_MS,
      }),
      ...scriptFakeSTT(fake, ({ transcript, partials }) =>
        fake.replyTranscript(transcript, { partials })
      ),
      teardown: () => fake.close(),
    }
  },
})
