/**
 * A carrier's media stream (Twilio Media Streams, Telnyx media streaming), in the shape the phone
 * line reads and writes whatever the carrier: each carrier maps its wire messages onto these.
 */

/**
 * What the carrier sends, read; `Start` is the carrier's own description of the call. `start`
 * also gives the id the carrier's REST API hangs the call up with (`callId`: Twilio's CallSid,
 * Telnyx's call_control_id) and the call's custom parameters (strings only: the others are left
 * out and named in `ignoredParameters`); `media` is caller audio (μ-law
 * 8 kHz); `mark` is a mark sent earlier coming back (the audio before it was played, or cleared).
 */
export type MediaStreamMessage<Start> =
  | { event: 'connected' }
  | {
      event: 'start'
      start: Start
      callId: string
      parameters: Record<string, string>
      /** Custom parameters left out (not strings), said for the log (`readCustomParameters`). */
      ignoredParameters?: string[]
    }
  | { event: 'media'; payload: Buffer }
  | { event: 'dtmf'; digit: string }
  | { event: 'mark'; name: string }
  | { event: 'stop' }

/** What the line sends the carrier: audio (base64 μ-law 8 kHz), a mark, or `clear`. */
export type MediaStreamCommand =
  { event: 'media'; payload: string } | { event: 'mark'; name: string } | { event: 'clear' }
