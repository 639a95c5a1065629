import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RecordedRequest } from './types.js'

/** One request a fake server is answering: its record, and how its connection ends. */
export interface RecordedExchange<Request extends RecordedRequest> {
  request: Request
  /** Resolves when the connection closed (client abort, reset, server shutdown). */
  closed: Promise<void>
  /** Destroys the connection on purpose (so it is not counted as a client abort). */
  reset(): Promise<void>
}

/**
 * Reads a request's body and records it (with `extra` fields a fake adds), and watches its
 * connection: `aborted` turns true when the client goes away before the response ended, unless the
 * fake itself cut it with `reset()`. Every HTTP fake provider server records requests this way.
 */
export async function recordExchange<Extra extends object>(
  req: IncomingMessage,
  res: ServerResponse,
  extra: Extra
): Promise<RecordedExchange<RecordedRequest & Extra>> {
  let ended = false
  let resetByServer = false
  let markClosed!: () => void
  const closed = new Promise<void>((resolve) => (markClosed = resolve))
  const rawBody = await readBody(req)
  const request: RecordedRequest & Extra = {
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?')[0]!,
    headers: req.headers,
    body: parseBody(rawBody),
    rawBody,
    aborted: false,
    finished: closed,
    ...extra,
  }
  res.on('finish', () => (ended = true))
  res.on('close', () => {
    if (!ended && !resetByServer) request.aborted = true
    markClosed()
  })
  const reset = async () => {
    resetByServer = true
    const socket = res.socket
    if (!socket) return
    // Let what was written reach the client first, then cut the connection.
    await new Promise<void>((resolve) => socket.write('', () => resolve()))
    socket.destroy()
  }
  return { request, closed, reset }
}

/** A scripted HTTP error: its status, `retry-after` (seconds), extra headers and body. */
export interface ErrorReply {
  status: number
  retryAfter?: number
  headers?: Record<string, string>
  /** JSON body, or a string sent as it is. */
  body: unknown
}

/** Sends a scripted HTTP error as JSON (a string body as it is). */
export function sendErrorReply(res: ServerResponse, reply: ErrorReply): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter)
  Object.assign(headers, reply.headers)
  res.writeHead(reply.status, headers)
  res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}
