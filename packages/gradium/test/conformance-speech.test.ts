import { createFakeGradiumSTT, createFakeGradiumTTS } from '@openmic/testing'
import { describeSTTConformance, describeTTSConformance } from '@openmic/testing/conformance'
import { GradiumSTT, GradiumTTS } from '../src/index.js'

const STALL_MS = 300

describeSTTConformance('GradiumSTT', {
  partials: true,
  reconnects: true,
  stallTimeoutMs: STALL_MS,
  make: async () => {
    const fake = await createFakeGradiumSTT()
    return {
      stt: new GradiumSTT({
        apiKey: 'test-key',
        baseURL: fake.baseURL,
        transcriptionTimeoutMs: STALL_MS,
      }),
      next: (utterance) => {
        if (utterance.kind === 'failure') fake.replyError('Scripted transcription failure')
        if (utterance.kind === 'stall') fake.replyStall()
        if (utterance.kind !== 'speech') return
        // The suite's partials are the text so far; Gradium sends each new segment.
        const segments = utterance.partials.map((partial, i) =>
          partial.slice(i > 0 ? utterance.partials[i - 1]!.length : 0).trim()
        )
        const rest = utterance.transcript.slice(utterance.partials.at(-1)?.length ?? 0).trim()
        fake.replyTranscript(utterance.transcript, {
          segments: [...segments, ...(rest ? [rest] : [])].filter(Boolean),
        })
      },
      closeConnection: async () => {
        fake.closeSessions(1000)
        await Promise.all(fake.sessions.map((session) => session.closed))
      },
      teardown: () => fake.close(),
    }
  },
})

describeTTSConformance('GradiumTTS', {
  words: true,
  stallTimeoutMs: STALL_MS,
  make: async () => {
    const fake = await createFakeGradiumTTS()
    return {
      tts: new GradiumTTS({
        apiKey: 'test-key',
        voiceId: 'test-voice',
        baseURL: fake.baseURL,
        stallTimeoutMs: STALL_MS,
      }),
      next: (speak) => {
        fake.clearReplies()
        if (speak.kind === 'failure') fake.reply({ kind: 'error', message: 'Scripted failure' })
        if (speak.kind === 'stall') fake.reply({ kind: 'stall' })
      },
      teardown: () => fake.close(),
    }
  },
})
