/**
 * Why an {@link ElevenLabsSTT} utterance failed. The message starts with `ElevenLabsSTT:` and names
 * the HTTP status of a refused connection, or Scribe's error `message_type`.
 */
export class ElevenLabsSTTError extends Error {
  override readonly name = 'ElevenLabsSTTError'
  /** HTTP status of a refused WebSocket upgrade (401 for a wrong key...). */
  readonly status: number | undefined
  /** Scribe's error `message_type` (`auth_error`, `quota_exceeded`, `transcriber_error`...). */
  readonly messageType: string | undefined
  /** Close code of the connection, when its close ended the utterance. */
  readonly closeCode: number | undefined

  constructor(
    message: string,
    details: { status?: number; messageType?: string; closeCode?: number } = {}
  ) {
    super(`ElevenLabsSTT: ${message}`)
    this.status = details.status
    this.messageType = details.messageType
    this.closeCode = details.closeCode
  }
}
