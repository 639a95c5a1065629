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

/** The message of an error body or in-band error (`{"message"}`, `{"error":{"message"}}`...). */
export function errorMessage(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return errorMessage(JSON.parse(value))
    } catch {
      return value.trim().slice(0, 200)
    }
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>
    for (const key of ['message', 'detail', 'error']) {
      const inner = record[key]
      if (inner !== undefined && inner !== null) return errorMessage(inner)
    }
    return JSON.stringify(value).slice(0, 200)
  }
  return String(value)
}
