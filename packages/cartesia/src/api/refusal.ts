import { readRefusedUpgrade, type RefusedUpgrade } from '@openmic/core/provider'

/**
 * Reads a refused WebSocket upgrade (an HTTP answer instead of `101`): its status and what its
 * body says (`{"message"}`, `{"error"}`, `{"title"}`, or the text), so a wrong key reads
 * `401 invalid api key`, not `Unexpected server response`.
 */
export function readRefusal(
  res: RefusedUpgrade,
  done: (refusal: { status: number; message: string }) => void
): void {
  readRefusedUpgrade(res, ({ status, statusMessage, body }) =>
    done({ status, message: bodyMessage(body) || statusMessage || 'connection refused' })
  )
}

/** What a refused upgrade's body says (`{"message"}`, `{"error"}`, `{"title"}`, or the text). */
export function bodyMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>
    const message = parsed.message ?? parsed.error ?? parsed.title ?? parsed.detail
    if (message !== undefined)
      return typeof message === 'string' ? message : JSON.stringify(message)
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  return body.trim().slice(0, 200)
}
