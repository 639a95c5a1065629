/** Longest message taken from a body's text or a JSON value without one. */
const MAX_LENGTH = 200
/** Where APIs put their error's message, in the order it is looked for. */
const MESSAGE_KEYS = ['message', 'detail', 'error', 'title']

/**
 * The message of an HTTP error body or of an in-band error object, as speech APIs word them:
 * `{"message"}`, `{"detail"}`, `{"error"}` or `{"title"}`, looked into at any depth
 * (`{"error":{"message"}}`), and `status: message` for an object with both as text (ElevenLabs'
 * `{"detail":{"status":"invalid_api_key","message":"Invalid API key"}}`). A value with none of them
 * is given as JSON, a body that is not JSON as its text (trimmed; both at most 200 characters).
 * Empty for an empty body, so callers can fall back on the status text.
 */
export function errorBodyMessage(body: unknown): string {
  if (typeof body !== 'string') return messageOf(body)
  try {
    return messageOf(JSON.parse(body))
  } catch {
    // Not JSON: the text itself says what went wrong.
    return body.trim().slice(0, MAX_LENGTH)
  }
}

function messageOf(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    const { status, message } = record
    if (typeof status === 'string' && typeof message === 'string') return `${status}: ${message}`
    for (const key of MESSAGE_KEYS) {
      const inner = record[key]
      if (inner !== undefined && inner !== null) return messageOf(inner)
    }
  }
  return JSON.stringify(value).slice(0, MAX_LENGTH)
}
