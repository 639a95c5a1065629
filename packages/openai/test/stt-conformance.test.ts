import { createFakeOpenaiRealtime } from '@openmic/testing'
import { describeSTTConformance } from '@openmic/testing/conformance'
import { afterAll } from 'vitest'
import { OpenaiSTT } from '../src/index.js'

// One fake server for the file, created before the suite watches what the STT opens.
const fake = await createFakeOpenaiRealtime({ apiKey: 'sk-test' })
afterAll(() => fake.close())

const STALL_TIMEOUT_MS = 300

describeSTTConformance('OpenaiSTT', {
  partials: true,
  reconnects: true,
  stallTimeoutMs: STALL_TIMEOUT_MS,
  make: () => {
    fake.reset()
    return {
      stt: new OpenaiSTT({
        apiKey: 'sk-test',
        baseURL: fake.baseURL,
        transcriptionTimeoutMs: STALL_TIMEOUT_MS,
      }),
      next: (utterance) => {
        if (utterance.kind === 'speech') {
          // The suite gives the text so far; the API sends what each delta adds.
          const deltas = utterance.partials.map((text, i) =>
            text.slice(i === 0 ? 0 : utterance.partials[i - 1]!.length)
          )
          fake.replyTranscript(utterance.transcript, { partials: deltas })
        } else if (utterance.kind === 'failure') {
          fake.replyError('The server had an error.', { code: 'server_error' })
        } else if (utterance.kind === 'stall') {
          fake.replySteps() // the commit is never answered
        }
        // An empty utterance sends no commit: nothing to script.
      },
      // A close 1000, finished (the client has the close frame) before the next utterance.
      closeConnection: async () => {
        fake.closeConnections(1000)
        await fake.waitFor(() => fake.connections.every((connection) => connection.closed))
      },
    }
  },
})
