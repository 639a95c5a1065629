import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/**
 * Why a {@link LocalSTT} utterance failed: the decoder's error, a worker that stopped, an audio
 * stream that broke. The message starts with `LocalSTT:`.
 */
export class LocalSTTError extends ProviderError {
  override readonly name = 'LocalSTTError'
  constructor(message: string, details?: ProviderErrorDetails) {
    super('LocalSTT', message, details)
  }
}
