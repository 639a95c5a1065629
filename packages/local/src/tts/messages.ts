import type { FliteVoice } from '../native/flite.js'

/** Main thread → TTS worker: speak one sentence. */
export type TtsRequest = { type: 'speak'; id: number; text: string }

/** TTS worker → main thread: the sentence's audio, PCM16 mono 16 kHz. */
export type TtsResponse =
  | { type: 'ready' }
  | { type: 'audio'; id: number; samples: Int16Array<ArrayBuffer> }
  | { type: 'error'; id: number; message: string }

export interface TtsWorkerData {
  voice: FliteVoice
}
