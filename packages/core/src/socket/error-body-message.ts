/**
 * The message of an HTTP error body, as speech APIs word them: `{"message"}`, `{"detail"}` or
 * `{"error":{"message"}}` (a non-string message as JSON), else the body's text (trimmed, at most
 * 200 characters). Empty for an empty body, so callers can fall back on the status text.
 */
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
