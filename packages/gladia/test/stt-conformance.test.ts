import { createFakeGladiaLive } from '@openmic/testing'
import { describeSTTConformance } from '@openmic/testing/conformance'
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
      next: (utterance) => {
        if (utterance.kind === 'failure') fake.replyError('Scripted transcription failure')
        if (utterance.kind === 'stall') fake.replyStall()
        if (utterance.kind === 'speech') {
          fake.replyTranscript(utterance.transcript, { partials: utterance.partials })
        }
      },
      closeConnection: async () => {
        fake.closeSessions(1000)
        await Promise.all(fake.sessions.map((session) => session.closed()))
      },
      teardown: () => fake.close(),
    }
  },
})
