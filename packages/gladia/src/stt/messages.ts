/**
 * The messages of Gladia's live WebSocket that GladiaSTT reads (shapes from Gladia's AsyncAPI
 * description and `@gladiaio/sdk`'s generated types); others are ignored.
 */
export type GladiaServerMessage =
  | {
      type: 'transcript'
      data?: { id?: string; is_final?: boolean; utterance?: { text?: string } }
    }
  | {
      /** The acknowledgment of an audio chunk: `byte_range` is relative to the whole session. */
      type: 'audio_chunk'
      acknowledged?: boolean
      error?: { message?: string } | null
      data?: { byte_range?: [number, number]; time_range?: [number, number] } | null
    }
  | {
      type: 'stop_recording'
      acknowledged?: boolean
      error?: { message?: string } | null
    }
  | { type: 'end_recording' | 'end_session' | 'post_transcript' | 'post_final_transcript' }
  | { type: 'speech_start' | 'speech_end' }
  | { type: 'error'; error?: { message?: string } | string; message?: string }
