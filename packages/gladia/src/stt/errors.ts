/** An error of GladiaSTT: names the provider and, when there is one, the HTTP status. */
export class GladiaSTTError extends Error {
  override readonly name = 'GladiaSTTError'
  constructor(
    message: string,
    /** The HTTP status of a refused session creation or WebSocket upgrade (401 for a wrong key...). */
    readonly status?: number,
    /** The close code of a WebSocket that ended the session. */
    readonly closeCode?: number
  ) {
    super(`GladiaSTT: ${message}`)
  }
}
