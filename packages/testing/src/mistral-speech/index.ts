export {
  createFakeMistralSpeech,
  FakeMistralSpeech,
  MISTRAL_SPEECH_SAMPLE_RATE,
  float32Sine,
  speechResponse,
} from './createFakeMistralSpeech.js'
export type { FakeSpeechOptions } from './createFakeMistralSpeech.js'
export { mistralSpeechDialect, speechAudioDelta } from './speech-dialect.js'
