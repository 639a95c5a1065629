import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/**
 * An error of CartesiaSTT: names the provider and the status (of a refused connection, or the
 * `status_code` of an in-band error) or the code (its `error_code`) Cartesia gave.
 */
export class CartesiaSTTError extends ProviderError {
  override readonly name = 'CartesiaSTTError'
  constructor(message: string, details?: ProviderErrorDetails) {
    super('CartesiaSTT', message, details)
  }
}
