import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/**
 * Why a {@link LocalTTS} `speak()` failed: flite's error, a worker that stopped, a text stream
 * that broke. The message starts with `LocalTTS:`.
 */
export class LocalTTSError extends ProviderError {
  override readonly name = 'LocalTTSError'
  constructor(message: string, details?: ProviderErrorDetails) {
    super('LocalTTS', message, details)
  }
}
