import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/**
 * Why an {@link ElevenLabsTTS} `speak()` failed. The message starts with `ElevenLabsTTS:` and names
 * the HTTP status of a refused connection (`status`), the API's error name (`code`, e.g.
 * `voice_not_found`) and close code (`closeCode`, also that of a connection that ended).
 */
export class ElevenLabsTTSError extends ProviderError {
  override readonly name = 'ElevenLabsTTSError'

  constructor(message: string, details?: ProviderErrorDetails) {
    super('ElevenLabsTTS', message, details)
  }

  /** The API's error name of an in-band error (e.g. `max_active_conversations`): the same as `code`. */
  get error(): string | undefined {
    return this.code
  }
}
