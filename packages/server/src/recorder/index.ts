export { MicdropRecorder } from './MicdropRecorder.js'
export type { MicdropAudioMessage, MicdropRecorderEvents, MicdropRecording } from './types.js'
