import type { ProviderError } from '@openmic/core'
import {
  JsonSocket,
  describeSocketEnd,
  socketEndError,
  type JsonSocketEnd,
  type ProviderConnectionEvents,
  type ProviderConnectionOptions,
} from '@openmic/core/provider'
import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime'
import { WebSocket } from 'ws'
import type { OpenaiErrorDetails } from './stt/errors.js'

/** How to open a {@link RealtimeApiConnection}. */
export interface RealtimeApiConnectionOptions extends ProviderConnectionOptions {
  /** Sent first once the socket opens, before anything queued. */
  firstEvent: RealtimeClientEvent
}

/** What a {@link RealtimeApiConnection} reports to its owner. */
export interface RealtimeApiConnectionEvents<E extends Error> extends ProviderConnectionEvents<E> {
  onMessage(event: RealtimeServerEvent): void
}

/**
 * One WebSocket to OpenAI's Realtime API (core's {@link JsonSocket}), authenticated with a bearer
 * key, ending with the error of the class it serves (`OpenaiSTTError`, `OpenaiRealtimeError`): its
 * first event goes first once it opens; events sent before it opens are queued and sent once, in
 * order; once it is over nothing is sent (never replayed on another socket). Server messages that
 * are not JSON events are logged and ignored.
 */
export class RealtimeApiConnection<E extends ProviderError> extends JsonSocket<
  RealtimeServerEvent,
  RealtimeClientEvent
> {
  constructor(
    options: RealtimeApiConnectionOptions,
    events: RealtimeApiConnectionEvents<E>,
    error: (message: string, details: OpenaiErrorDetails) => E
  ) {
    const ws = new WebSocket(options.url, {
      headers: { Authorization: `Bearer ${options.apiKey}` },
    })
    super(ws, {
      connectionTimeoutMs: options.connectionTimeoutMs,
      isMessage: (value): value is RealtimeServerEvent & Record<string, unknown> =>
        typeof value.type === 'string',
      messageName: 'an event',
      onMessage: (event) => events.onMessage(event),
      onEnd: (end) => events.onClosed(endError(end, error)),
      log: events.log,
    })
    this.send(options.firstEvent)
  }
}

function endError<E extends Error>(
  end: JsonSocketEnd,
  error: (message: string, details: OpenaiErrorDetails) => E
): E {
  if (end.kind !== 'refused') return socketEndError(end, error)
  // The API's body names its error's code and type too.
  const { code, type } = errorFields(end.body)
  return error(describeSocketEnd(end), { status: end.status, code, type })
}

function errorFields(body: string): { code?: string; type?: string } {
  try {
    const { code, type } = JSON.parse(body)?.error ?? {}
    return {
      code: typeof code === 'string' ? code : undefined,
      type: typeof type === 'string' ? type : undefined,
    }
  } catch {
    return {}
  }
}
