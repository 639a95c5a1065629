import { JsonSocket, describeSocketEnd, type JsonSocketEnd } from '@openmic/core/provider'
import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime'
import { WebSocket } from 'ws'
import { OpenaiSTTError } from './errors.js'

/** How to open an {@link OpenaiSTTConnection}. */
export interface OpenaiSTTConnectionOptions {
  url: string
  apiKey: string
  connectionTimeoutMs: number
  /** Sent first once the socket opens, before anything queued. */
  firstEvent: RealtimeClientEvent
  onEvent(event: RealtimeServerEvent): void
  /** Called once when the socket is over, whatever ended it (never after `dispose()`). */
  onEnd(error: OpenaiSTTError): void
  log(...message: unknown[]): void
}

/**
 * One WebSocket to the Realtime API (core's {@link JsonSocket}), authenticated with a bearer key;
 * `end()` takes an {@link OpenaiSTTError}. Its first event goes first once it opens; events sent
 * before it opens are queued and sent once, in order; once it is over nothing is sent (never
 * replayed on another socket). Server messages that are not JSON events are logged and ignored.
 */
export class OpenaiSTTConnection extends JsonSocket<RealtimeServerEvent, RealtimeClientEvent> {
  constructor(options: OpenaiSTTConnectionOptions) {
    const ws = new WebSocket(options.url, {
      headers: { Authorization: `Bearer ${options.apiKey}` },
    })
    super(ws, {
      connectionTimeoutMs: options.connectionTimeoutMs,
      isMessage: (value): value is RealtimeServerEvent & Record<string, unknown> =>
        typeof value.type === 'string',
      messageName: 'an event',
      onMessage: options.onEvent,
      onEnd: (end) => options.onEnd(realtimeError(end)),
      log: options.log,
    })
    this.send(options.firstEvent)
  }
}

function realtimeError(end: JsonSocketEnd): OpenaiSTTError {
  switch (end.kind) {
    case 'ended':
      return end.reason as OpenaiSTTError
    case 'refused': {
      const { message, code, type } = parseErrorBody(end.body)
      const text = `HTTP ${end.status}${message ? ` ${message}` : ''}`
      return new OpenaiSTTError(text, { status: end.status, code, type })
    }
    case 'error':
      return new OpenaiSTTError(describeSocketEnd(end), { cause: end.error })
    case 'closed':
      return new OpenaiSTTError(describeSocketEnd(end), { closeCode: end.code })
    case 'timeout':
      return new OpenaiSTTError(describeSocketEnd(end))
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
