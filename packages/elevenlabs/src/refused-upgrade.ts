/** The message of an ElevenLabs error body, or its text. */
export function detailMessage(body: string): string {
  try {
    const parsed = JSON.parse(body)
    const detail = parsed?.detail ?? parsed
    if (typeof detail === 'string') return detail
    if (detail && typeof detail === 'object') {
      const { status, message } = detail as { status?: unknown; message?: unknown }
      return [status, message].filter((part) => typeof part === 'string').join(': ')
    }
  } catch {
    // Not JSON: the text itself is the message.
  }
  return body.trim().slice(0, 200)
}
