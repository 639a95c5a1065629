import { createFakeElevenLabsSTT } from '@openmic/testing'
import { describeSTTConformance } from '@openmic/testing/conformance'
import { afterAll } from 'vitest'
import { ElevenLabsSTT } from '../src/index.js'

// One fake server for the file, created before the suite watches what the STT opens.
const fake = await createFakeElevenLabsSTT({ apiKey: 'xi-test' })
afterAll(() => fake.close())

const STALL_TIMEOUT_MS = 300

describeSTTConformance('ElevenLabsSTT', {
  partials: true,
  reconnects: true,
  stallTimeoutMs: STALL_TIMEOUT_MS,
  make: () => {
    fake.reset()
    return {
      stt: new ElevenLabsSTT({
        apiKey: 'xi-test',
        baseURL: fake.baseURL,
        transcriptionTimeoutMs: STALL_TIMEOUT_MS,
      }),
      next: (utterance) => {
        // Scribe's partials are the segment's text so far, as the suite gives them.
        if (utterance.kind === 'speech') {
          fake.replyTranscript(utterance.transcript, { partials: utterance.partials })
        } else if (utterance.kind === 'failure') {
          fake.replyError('Scripted transcriber failure')
        } else if (utterance.kind === 'stall') {
          fake.replyStall()
        }
        // An empty utterance sends no commit: nothing to script.
      },
      // A close 1000, finished (the client has the close frame) before the next utterance.
      closeConnection: async () => {
        fake.closeSessions(1000)
        await fake.waitFor(() => fake.sessions.every((session) => session.closed))
      },
    }
  },
})
