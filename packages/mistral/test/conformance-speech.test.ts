import {
  createFakeMistralRealtime,
  createFakeMistralSpeech,
  float32Sine,
  speechResponse,
} from '@openmic/testing'
import { describeSTTConformance, describeTTSConformance } from '@openmic/testing/conformance'
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
      next: (utterance) => {
        if (utterance.kind === 'failure') fake.replyError('Scripted transcription failure')
        if (utterance.kind === 'stall') fake.replyStall()
        if (utterance.kind !== 'speech') return
        // The suite's partials are the text so far; Mistral sends the new piece of each.
        const deltas = utterance.partials.map((partial, i) =>
          partial.slice(i > 0 ? utterance.partials[i - 1]!.length : 0)
        )
        fake.replyTranscript(utterance.transcript, { deltas })
      },
      closeConnection: async () => {
        fake.closeSessions(1000)
        await Promise.all(fake.sessions.map((session) => session.closed))
      },
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
