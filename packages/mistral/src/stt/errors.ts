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

/** The message of an error body from Mistral (`{"message"}`, `{"detail"}`, `{"error":{"message"}}`). */
export function errorBodyMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as Record<string, any>
    const message = parsed.message ?? parsed.detail ?? parsed.error?.message
    if (message !== undefined)
      return typeof message === 'string' ? message : JSON.stringify(message)
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  return body.trim().slice(0, 200)
}
