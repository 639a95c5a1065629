import {
  FallbackSTT,
  FallbackTTS,
  MockSTT,
  MockTTS,
  type MockTTSOptions,
  type MockUtterance,
} from '@openmic/core'
import { describeSTTConformance, describeTTSConformance } from '../src/conformance/index.js'
import { mockUtterance, scriptMockTTS } from './mock-speech.js'

// The first provider of each chain is down: every test goes through the switch to the second,
// which replays the audio (or text) the first one was given.

describeSTTConformance('FallbackSTT', {
  partials: true,
  stallTimeoutMs: 300,
  make: () => {
    const script: MockUtterance[] = []
    return {
      stt: new FallbackSTT({
        factories: [
          () => new MockSTT({ utterances: () => ({ error: new Error('Primary STT down') }) }),
          () => new MockSTT({ utterances: (index) => script[index] ?? '' }),
        ],
        transcriptTimeoutMs: 300,
      }),
      next: (utterance) => void script.push(mockUtterance(utterance)),
    }
  },
})

describeTTSConformance('FallbackTTS', {
  words: true,
  stallTimeoutMs: 300,
  make: () => {
    const options: MockTTSOptions = { chunkMs: 40, chunkDelayMs: 5 }
    return {
      tts: new FallbackTTS({
        factories: [
          () => new MockTTS({ error: new Error('Primary TTS down') }),
          () => new MockTTS(options),
        ],
        firstAudioTimeoutMs: 300,
      }),
      next: (speak) => scriptMockTTS(options, speak),
    }
  },
})
