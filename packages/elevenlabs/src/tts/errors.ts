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
}
