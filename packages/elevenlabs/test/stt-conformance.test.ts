import { createFakeElevenLabsSTT } from '@openmic/testing'
import { describeSTTConformance, scriptFakeSTT } from '@openmic/testing/conformance'
import { ElevenLabsSTT } from '../src/index.js'

const STALL_TIMEOUT_MS = 300

describeSTTConformance('ElevenLabsSTT', {
  partials: true,
  reconnects: true,
  stallTimeoutMs: STALL_TIMEOUT_MS,
  make: async () => {
    const fake = await createFakeElevenLabsSTT({ apiKey: 'xi-test' })
    return {
      stt: new ElevenLabsSTT({
        apiKey: 'xi-test',
        baseURL: fake.baseURL,
        transcriptionTimeoutMs: STALL_TIMEOUT_MS,
      }),
      // Scribe's partials are the segment's text so far, as the suite gives them.
      ...scriptFakeSTT(fake, ({ transcript, partials }) =>
        fake.replyTranscript(transcript, { partials })
      ),
      teardown: () => fake.close(),
    }
  },
})
