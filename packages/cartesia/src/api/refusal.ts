import type { IncomingMessage } from 'node:http'

/**
 * Reads a refused WebSocket upgrade (an HTTP answer instead of `101`): its status and what its
 * body says (`{"message"}`, `{"error"}`, `{"title"}`, or the text), so a wrong key reads
 * `401 invalid api key`, not `Unexpected server response`.
 */
export function readRefusal(
  res: IncomingMessage,
  done: (refusal: { status: number; message: string }) => void
): void {
  let body = ''
  let called = false
  res.setEncoding('utf8')
  res.on('data', (chunk: string) => {
    if (body.length < 4096) body += chunk
  })
  const finish = () => {
    if (called) return
    called = true
    done({
      status: res.statusCode ?? 0,
      message: bodyMessage(body) || res.statusMessage || 'connection refused',
    })
  }
  res.once('end', finish)
  res.once('error', finish)
  res.once('close', finish)
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
