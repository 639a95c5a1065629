/**
 * Why an {@link ElevenLabsTTS} `speak()` failed. The message starts with `ElevenLabsTTS:` and names
 * the HTTP status of a refused connection, or the API's error and code.
 */
export class ElevenLabsTTSError extends Error {
  override readonly name = 'ElevenLabsTTSError'
  /** HTTP status of a refused WebSocket upgrade (401 for a wrong key...). */
  readonly status: number | undefined
  /** The API's error name of an in-band error (e.g. `max_active_conversations`). */
  readonly error: string | undefined
  /** The API's code of an in-band error, or the close code of a connection that ended. */
  readonly code: number | undefined

  constructor(message: string, details: { status?: number; error?: string; code?: number } = {}) {
    super(`ElevenLabsTTS: ${message}`)
    this.status = details.status
    this.error = details.error
    this.code = details.code
  }
}
