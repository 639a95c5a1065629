import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/**
 * An error of MistralSTT: names the provider and, when there is one, the HTTP status of a refused
 * connection (`status`) or the code of an in-band `error` message (`code`, its digits).
 */
export class MistralSTTError extends ProviderError {
  override readonly name = 'MistralSTTError'
  constructor(message: string, details?: ProviderErrorDetails) {
    super('MistralSTT', message, details)
  }
}
