import { Logger } from '@openmic/core'

/**
 * A `Logger` whose lines carry the trace id of the call they belong to (`trace_id=<32 hex>` right
 * after the prefix), to find a call's logs from its trace and back. Give it to the server as its
 * `logger` and to {@link instrumentCall} as `logger`: the lines carry the id from then on, and
 * only when tracing is on (a recording span; with no SDK the lines are as a `Logger`'s).
 *
 * @example
 * const logger = new TracedLogger('call')
 * const server = new MicdropServer(socket, { agent, stt, tts, logger })
 * instrumentCall(server, { logger })
 * // [call 1.204] trace_id=4bf92f3577b34da6a3ce929d0e0e4736 Answering
 */
export class TracedLogger extends Logger {
  /** The call's trace id, set by `instrumentCall` when tracing is on. */
  traceId?: string

  override log(...message: any[]): void {
    if (this.traceId === undefined) super.log(...message)
    else super.log(`trace_id=${this.traceId}`, ...message)
  }
}
