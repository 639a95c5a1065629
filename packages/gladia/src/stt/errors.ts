import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/**
 * An error of GladiaSTT: names the provider and, when there is one, the HTTP status of a refused
 * session creation or WebSocket upgrade (`status`: 401 for a wrong key...) or the close code of a
 * WebSocket that ended the session (`closeCode`).
 */
export class GladiaSTTError extends ProviderError {
  override readonly name = 'GladiaSTTError'
  constructor(message: string, details?: ProviderErrorDetails) {
    super('GladiaSTT', message, details)
  }
}
