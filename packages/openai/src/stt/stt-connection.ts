import type { ProviderErrorDetails } from '@openmic/core'
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
import { OpenaiSTTError } from './errors.js'

/** How to open an {@link OpenaiSTTConnection}. */
export interface OpenaiSTTConnectionOptions extends ProviderConnectionOptions {
  /** Sent first once the socket opens, before anything queued. */
  firstEvent: RealtimeClientEvent
}

/** What an {@link OpenaiSTTConnection} reports to its owner. */
export interface OpenaiSTTConnectionEvents extends ProviderConnectionEvents<OpenaiSTTError> {
  onMessage(event: RealtimeServerEvent): void
}

/**
 * One WebSocket to the Realtime API (core's {@link JsonSocket}), authenticated with a bearer key;
 * `end()` takes an {@link OpenaiSTTError}. Its first event goes first once it opens; events sent
 * before it opens are queued and sent once, in order; once it is over nothing is sent (never
 * replayed on another socket). Server messages that are not JSON events are logged and ignored.
 */
export class OpenaiSTTConnection extends JsonSocket<RealtimeServerEvent, RealtimeClientEvent> {
  constructor(options: OpenaiSTTConnectionOptions, events: OpenaiSTTConnectionEvents) {
    const ws = new WebSocket(options.url, {
      headers: { Authorization: `Bearer ${options.apiKey}` },
    })
    super(ws, {
      connectionTimeoutMs: options.connectionTimeoutMs,
      isMessage: (value): value is RealtimeServerEvent & Record<string, unknown> =>
        typeof value.type === 'string',
      messageName: 'an event',
      onMessage: (event) => events.onMessage(event),
      onEnd: (end) => events.onClosed(realtimeError(end)),
      log: events.log,
    })
    this.send(options.firstEvent)
  }
}

function realtimeError(end: JsonSocketEnd): OpenaiSTTError {
  const create = (message: string, details: ProviderErrorDetails) =>
    new OpenaiSTTError(message, details)
  if (end.kind !== 'refused') return socketEndError(end, create)
  // The API's body names its error's code and type too.
  const { code, type } = errorFields(end.body)
  return new OpenaiSTTError(describeSocketEnd(end), { status: end.status, code, type })
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
