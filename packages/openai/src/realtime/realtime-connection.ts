import {
  RealtimeApiConnection,
  type RealtimeApiConnectionEvents,
  type RealtimeApiConnectionOptions,
} from '../realtime-api-connection.js'
import { OpenaiRealtimeError } from './errors.js'

/**
 * One WebSocket session of a speech-to-speech model; `end()` takes an {@link OpenaiRealtimeError}
 * (see {@link RealtimeApiConnection}).
 */
export class OpenaiRealtimeConnection extends RealtimeApiConnection<OpenaiRealtimeError> {
  constructor(
    options: RealtimeApiConnectionOptions,
    events: RealtimeApiConnectionEvents<OpenaiRealtimeError>
  ) {
    super(options, events, (message, details) => new OpenaiRealtimeError(message, details))
  }
}
