/**
 * A carrier's media stream (Twilio Media Streams, Telnyx media streaming), in the shape the phone
 * line reads and writes whatever the carrier: each carrier maps its wire messages onto these.
 */

/** What the carrier sends, read; `Start` is the carrier's own description of the call. */
export type MediaStreamMessage<Start> =
  | { event: 'connected' }
  | {
      event: 'start'
      start: Start
      /** The id the carrier's REST API hangs the call up with (Twilio's CallSid...). */
      callId: string
      /** The call's custom parameters (from the webhook's answer), as the carrier gave them. */
      parameters: Record<string, string>
    }
  /** Caller audio: μ-law 8 kHz. */
  | { event: 'media'; payload: Buffer }
  | { event: 'dtmf'; digit: string }
  /** A mark sent earlier came back: the audio before it was played (or cleared). */
  | { event: 'mark'; name: string }
  | { event: 'stop' }

/** What the line sends the carrier: audio (base64 μ-law 8 kHz), a mark, or `clear`. */
export type MediaStreamCommand =
  { event: 'media'; payload: string } | { event: 'mark'; name: string } | { event: 'clear' }
