import { MockSTT, MockTTS, type MockTTSOptions, type MockUtterance } from '@openmic/core'
import { describeSTTConformance, describeTTSConformance } from '../src/conformance/index.js'
import { mockUtterance, scriptMockTTS } from './mock-speech.js'

describeSTTConformance('MockSTT', {
  partials: true,
  make: () => {
    const script: MockUtterance[] = []
    return {
      stt: new MockSTT({ utterances: (index) => script[index] ?? '' }),
      next: (utterance) => void script.push(mockUtterance(utterance)),
    }
  },
})

describeTTSConformance('MockTTS', {
  words: true,
  make: () => {
    // MockTTS reads its options at each speak(): scripting a failure is setting `error`.
    const options: MockTTSOptions = { chunkMs: 40, chunkDelayMs: 5 }
    return {
      tts: new MockTTS(options),
      next: (speak) => scriptMockTTS(options, speak),
    }
  },
})
