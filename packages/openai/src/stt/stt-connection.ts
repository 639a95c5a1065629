import {
  RealtimeApiConnection,
  type RealtimeApiConnectionEvents,
  type RealtimeApiConnectionOptions,
} from '../realtime-api-connection.js'
import { OpenaiSTTError } from './errors.js'

/** How to open an {@link OpenaiSTTConnection}. */
export type OpenaiSTTConnectionOptions = RealtimeApiConnectionOptions

/** What an {@link OpenaiSTTConnection} reports to its owner. */
export type OpenaiSTTConnectionEvents = RealtimeApiConnectionEvents<OpenaiSTTError>

/**
 * One WebSocket to the Realtime API for transcription; `end()` takes an {@link OpenaiSTTError}
 * (see {@link RealtimeApiConnection}).
 */
export class OpenaiSTTConnection extends RealtimeApiConnection<OpenaiSTTError> {
  constructor(options: OpenaiSTTConnectionOptions, events: OpenaiSTTConnectionEvents) {
    super(options, events, (message, details) => new OpenaiSTTError(message, details))
  }
}
