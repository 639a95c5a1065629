export { createFakeOpenaiSpeech, FakeOpenaiSpeech } from './FakeOpenaiSpeech.js'
export type { FakeOpenaiSpeechOptions } from './FakeOpenaiSpeech.js'
export { openaiSpeechRequestProblem } from './speech-request-problem.js'
export type {
  FakeOpenaiSpeechAudio,
  FakeOpenaiSpeechReply,
  RecordedOpenaiSpeechRequest,
} from './types.js'
