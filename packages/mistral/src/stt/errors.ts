/** An error of MistralSTT: names the provider and, for a refused connection, the HTTP status. */
export class MistralSTTError extends Error {
  override readonly name = 'MistralSTTError'
  constructor(
    message: string,
    /** The HTTP status of a refused WebSocket upgrade (401 for a wrong key...). */
    readonly status?: number,
    /** The code of an in-band `error` message. */
    readonly code?: number
  ) {
    super(`MistralSTT: ${message}`)
  }
}
