import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/**
 * Why an {@link ElevenLabsSTT} utterance failed. The message starts with `ElevenLabsSTT:` and names
 * the HTTP status of a refused connection (`status`), Scribe's error `message_type` (its `code`:
 * `auth_error`, `quota_exceeded`...), or the close code of a connection that ended (`closeCode`).
 */
export class ElevenLabsSTTError extends ProviderError {
  override readonly name = 'ElevenLabsSTTError'

  constructor(message: string, details?: ProviderErrorDetails) {
    super('ElevenLabsSTT', message, details)
  }
}
