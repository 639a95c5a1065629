import { ProviderError } from '@openmic/core'

/** An error of GladiaSTT: names the provider and, when there is one, the HTTP status. */
export class GladiaSTTError extends ProviderError {
  override readonly name = 'GladiaSTTError'
  /** The close code of a WebSocket that ended the session. */
  readonly closeCode: number | undefined

  /**
   * @param status - the HTTP status of a refused session creation or WebSocket upgrade (401 for a
   *   wrong key...).
   */
  constructor(message: string, status?: number, closeCode?: number) {
    super('GladiaSTT', message, { status })
    this.closeCode = closeCode
  }
}
