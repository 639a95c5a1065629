import { ProviderError } from '@openmic/core'

/**
 * Why an {@link ElevenLabsSTT} utterance failed. The message starts with `ElevenLabsSTT:` and names
 * the HTTP status of a refused connection (`status`), or Scribe's error `message_type` (also
 * its `code`).
 */
export class ElevenLabsSTTError extends ProviderError {
  override readonly name = 'ElevenLabsSTTError'
  /** Scribe's error `message_type` (`auth_error`, `quota_exceeded`, `transcriber_error`...). */
  readonly messageType: string | undefined
  /** Close code of the connection, when its close ended the utterance. */
  readonly closeCode: number | undefined

  constructor(
    message: string,
    details: { status?: number; messageType?: string; closeCode?: number } = {}
  ) {
    // Scribe's error type is its code.
    super('ElevenLabsSTT', message, { status: details.status, code: details.messageType })
    this.messageType = details.messageType
    this.closeCode = details.closeCode
  }
}
