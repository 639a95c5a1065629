export { Mic, MIC_FRAME_MS } from './Mic.js'
export type { MicConstraints } from './Mic.js'
export { MicRecorder, CHUNK_MS, PRE_ROLL_MARGIN_MS, MAX_UNCONFIRMED_MS } from './MicRecorder.js'
export type { MicRecorderEvents, MicRecorderState } from './MicRecorder.js'
export { Speaker } from './Speaker.js'
export type { SpeakerEvents } from './Speaker.js'
export { PlaybackScheduler } from './playback-scheduler.js'
export { Pcm16Chunker } from './chunker.js'
export { PreRoll } from './pre-roll.js'
export {
  CAPTURE_PROCESSOR_NAME,
  CAPTURE_WORKLET_SOURCE,
  createCaptureWorkletUrl,
} from './capture-worklet.js'
export type { CaptureFrameMessage, CaptureProcessorOptions } from './capture-worklet.js'
export {
  WIRE_SAMPLE_RATE,
  SILENCE_DB,
  floatToPcm16,
  pcm16ToFloat,
  concatPcm16,
  arrayBufferToPcm16,
  pcm16ToArrayBuffer,
  rmsToDb,
  msToSamples,
} from './pcm.js'
export type { MicEvents, MicSource, MicdropDevice } from './types.js'
