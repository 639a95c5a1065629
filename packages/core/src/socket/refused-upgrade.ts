/** The HTTP answer of a refused upgrade (`ws`'s `unexpected-response`: an `IncomingMessage`). */
export interface RefusedUpgrade {
  statusCode?: number
  statusMessage?: string
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown
  once(event: 'end' | 'error' | 'close', listener: () => void): unknown
}

/** What a refused upgrade said: its HTTP status, status text and body (at most 16 KiB). */
export interface UpgradeRefusal {
  status: number
  statusMessage: string
  body: string
}

/** Longest error body read from a refused upgrade. */
const MAX_BODY = 16_384

/**
 * Reads a refused WebSocket upgrade (an HTTP answer instead of `101`) and calls `done` once with
 * its status and body, so that an error can say why (`401 invalid api key`) rather than `ws`'s
 * "Unexpected server response". An answer cut short is reported with what arrived.
 */
export function readRefusedUpgrade(
  response: RefusedUpgrade,
  done: (refusal: UpgradeRefusal) => void
): void {
  const chunks: Buffer[] = []
  let size = 0
  let reported = false
  response.on('data', (chunk) => {
    // Bytes, decoded once at the end: a character may straddle two chunks.
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    if (size < MAX_BODY) chunks.push(bytes.subarray(0, MAX_BODY - size))
    size += bytes.length
  })
  const finish = () => {
    if (reported) return
    reported = true
    done({
      status: response.statusCode ?? 0,
      statusMessage: response.statusMessage ?? '',
      body: Buffer.concat(chunks).toString('utf8'),
    })
  }
  response.once('end', finish)
  response.once('error', finish)
  // An answer cut short closes without `end`.
  response.once('close', finish)
}
