import { JsonSocket, describeSocketEnd, type JsonSocketEnd } from '@openmic/core/provider'
import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime'
import { WebSocket } from 'ws'
import { OpenaiSTTError } from './OpenaiSTTError.js'

/** One WebSocket to the Realtime API (core's {@link JsonSocket}); `end()` takes the socket's error. */
export type RealtimeSocket = JsonSocket<RealtimeServerEvent, RealtimeClientEvent>

/** What a socket's error says besides its message. */
export interface RealtimeErrorDetails {
  status?: number
  code?: string | null
  type?: string | null
  closeCode?: number
  cause?: unknown
}

/** The error class of the realtime client that opens the socket. */
export type RealtimeErrorClass<E extends Error> = new (
  message: string,
  details?: RealtimeErrorDetails
) => E

export interface RealtimeSocketOptions<E extends Error = OpenaiSTTError> {
  url: string
  apiKey: string
  connectionTimeoutMs: number
  /** Sent first once the socket opens, before anything queued. */
  firstEvent: RealtimeClientEvent
  onEvent(event: RealtimeServerEvent): void
  /** Called once when the socket is over, whatever ended it (never after `dispose()`). */
  onEnd(error: E): void
  log(...message: unknown[]): void
  /** The class of the error it ends with (default {@link OpenaiSTTError}). */
  errorClass?: RealtimeErrorClass<E>
}

/**
 * Opens one WebSocket to the Realtime API, authenticated with a bearer key. Events sent before it
 * opens are queued and sent once, in order, when it opens; once it is over nothing is sent (never
 * replayed on another socket). Server messages that are not JSON events are logged and ignored.
 */
export function openRealtimeSocket<E extends Error = OpenaiSTTError>(
  options: RealtimeSocketOptions<E>
): RealtimeSocket {
  const ws = new WebSocket(options.url, {
    headers: { Authorization: `Bearer ${options.apiKey}` },
  })
  const socket: RealtimeSocket = new JsonSocket(ws, {
    connectionTimeoutMs: options.connectionTimeoutMs,
    isMessage: (value): value is RealtimeServerEvent & Record<string, unknown> =>
      typeof value.type === 'string',
    messageName: 'an event',
    onMessage: options.onEvent,
    onEnd: (end) =>
      options.onEnd(
        realtimeError(
          end,
          options.errorClass ?? (OpenaiSTTError as unknown as RealtimeErrorClass<E>)
        )
      ),
    log: options.log,
  })
  socket.send(options.firstEvent)
  return socket
}

function realtimeError<E extends Error>(end: JsonSocketEnd, ErrorClass: RealtimeErrorClass<E>): E {
  switch (end.kind) {
    case 'ended':
      return end.reason as E
    case 'refused': {
      const { message, code, type } = parseErrorBody(end.body)
      const text = `HTTP ${end.status}${message ? ` ${message}` : ''}`
      return new ErrorClass(text, { status: end.status, code, type })
    }
    case 'error':
      return new ErrorClass(describeSocketEnd(end), { cause: end.error })
    case 'closed':
      return new ErrorClass(describeSocketEnd(end), { closeCode: end.code })
    case 'timeout':
      return new ErrorClass(describeSocketEnd(end))
  }
}

function parseErrorBody(body: string): { message?: string; code?: string; type?: string } {
  try {
    const error = JSON.parse(body)?.error
    if (error && typeof error === 'object') {
      return {
        message: typeof error.message === 'string' ? error.message : undefined,
        code: typeof error.code === 'string' ? error.code : undefined,
        type: typeof error.type === 'string' ? error.type : undefined,
      }
    }
  } catch {
    // Not JSON: the text itself is the message.
  }
  const text = body.trim().slice(0, 200)
  return { message: text || undefined }
}
