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
