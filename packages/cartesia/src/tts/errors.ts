import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/**
 * An error of CartesiaTTS: names the provider and the status (of a refused connection, or the
 * `status_code` of an in-band error) or the code (its `error_code`: `model_not_found`...)
 * Cartesia gave.
 */
export class CartesiaTTSError extends ProviderError {
  override readonly name = 'CartesiaTTSError'
  constructor(message: string, details?: ProviderErrorDetails) {
    super('CartesiaTTS', message, details)
  }
}
