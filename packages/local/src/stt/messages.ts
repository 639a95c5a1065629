import type { LocalSTTOptions } from './options.js'

/** Main thread → STT worker. `utt` numbers the utterance. */
export type SttRequest =
  | { type: 'start'; utt: number }
  | { type: 'audio'; utt: number; samples: Int16Array<ArrayBuffer> }
  | { type: 'end'; utt: number }
  | { type: 'abort'; utt: number }

/** STT worker → main thread. */
export type SttResponse =
  | { type: 'ready' }
  | { type: 'transcript'; utt: number; text: string }
  | { type: 'error'; utt: number; message: string }

export interface SttWorkerData {
  options: LocalSTTOptions
}
