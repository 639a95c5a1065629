import { ProviderError } from '@openmic/core'

/** An error of CartesiaSTT: names the provider and the status or code Cartesia gave. */
export class CartesiaSTTError extends ProviderError {
  override readonly name = 'CartesiaSTTError'
  /**
   * @param status - the HTTP status of a refused connection, or the `status_code` of an in-band error.
   * @param code - The `error_code` of an in-band error.
   */
  constructor(message: string, status?: number, code?: string) {
    super('CartesiaSTT', message, { status, code })
  }
}
