import type { IncomingMessage } from 'node:http'

/** Longest error body read from a refused upgrade. */
const MAX_BODY = 16_384

/**
 * Reads the body of a refused WebSocket upgrade and calls `done` with its status and the API's
 * message (ElevenLabs answers `{"detail":{"status","message"}}` or `{"detail":"..."}`).
 */
export function readRefusal(
  res: IncomingMessage,
  done: (status: number, message: string) => void
): void {
  const status = res.statusCode ?? 0
  const chunks: Buffer[] = []
  let size = 0
  res.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size <= MAX_BODY) chunks.push(chunk)
  })
  let called = false
  const finish = () => {
    if (called) return
    called = true
    const body = Buffer.concat(chunks).toString('utf8')
    done(status, detailMessage(body) || res.statusMessage || 'connection refused')
  }
  res.once('end', finish)
  res.once('error', finish)
}

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
