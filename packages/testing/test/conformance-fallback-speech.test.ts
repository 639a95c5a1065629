import {
  FallbackSTT,
  FallbackTTS,
  MockSTT,
  MockTTS,
  type MockTTSOptions,
  type MockUtterance,
} from '@openmic/core'
import { describeSTTConformance, describeTTSConformance } from '../src/conformance/index.js'
import { mockUtterance } from './mock-speech.js'

// The first provider of each chain is down: every test goes through the switch to the second,
// which replays the audio (or text) the first one was given.

describeSTTConformance('FallbackSTT', {
  partials: true,
  make: () => {
    const script: MockUtterance[] = []
    return {
      stt: new FallbackSTT({
        factories: [
          () => new MockSTT({ utterances: () => ({ error: new Error('Primary STT down') }) }),
          () => new MockSTT({ utterances: (index) => script[index] ?? '' }),
        ],
      }),
      next: (utterance) => void script.push(mockUtterance(utterance)),
    }
  },
})

describeTTSConformance('FallbackTTS', {
  words: true,
  make: () => {
    const options: MockTTSOptions = { chunkMs: 40, chunkDelayMs: 5 }
    return {
      tts: new FallbackTTS({
        factories: [
          () => new MockTTS({ error: new Error('Primary TTS down') }),
          () => new MockTTS(options),
        ],
      }),
      next: (speak) => {
        options.error = speak.kind === 'failure' ? new Error('Scripted TTS failure') : undefined
      },
    }
  },
})
