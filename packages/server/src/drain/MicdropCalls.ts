import type { CallServer } from '../transport/CallServer.js'

/** WebSocket close code 1012 (service restart): clients reconnect. */
const SERVICE_RESTART = 1012

export interface DrainOptions {
  /** How long answers in progress may take to finish before their call is closed (default 30 000 ms). */
  deadlineMs?: number
}

/**
 * The calls of one server process, for a graceful restart: `drain()` closes each call with 1012
 * once its answer in progress has been spoken (or at the deadline), after its conversation is
 * stored; the clients reconnect, to another instance behind the load balancer, and go on.
 *
 * @example
 * const calls = new MicdropCalls()
 * wss.on('connection', (socket) => calls.add(new MicdropServer(socket, options)))
 * drainOnSignal(calls, { stopAccepting: () => httpServer.close() })
 */
export class MicdropCalls {
  private readonly calls = new Set<CallServer>()
  private draining?: Promise<void>
  private deadlineMs = 0

  /**
   * Tracks a call until it ends. A call added while draining is closed with 1012 at once. Any
   * transport's call: `MicdropServer`, `TwilioServer`, `TelnyxServer`.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- every transport's events
  add<Call extends CallServer<any>>(call: Call): Call {
    const server = call as unknown as CallServer
    if (this.draining) {
      server.close(SERVICE_RESTART, 'Service restart')
      return call
    }
    if (server.isEnded) return call
    this.calls.add(server)
    server.once('End', () => this.calls.delete(server))
    return call
  }

  /** Calls in progress. */
  get size(): number {
    return this.calls.size
  }

  /** True once `drain()` was called. */
  get isDraining(): boolean {
    return this.draining !== undefined
  }

  /** Drains every call (see `CallServer.drain`); resolves when all are closed. */
  drain(options: DrainOptions = {}): Promise<void> {
    this.deadlineMs = options.deadlineMs ?? 30_000
    this.draining ??= Promise.all([...this.calls].map((call) => call.drain(this.deadlineMs))).then(
      () => undefined
    )
    return this.draining
  }
}

export interface DrainOnSignalOptions extends DrainOptions {
  /** Stops accepting connections (e.g. `() => httpServer.close()`); called first. */
  stopAccepting?: () => void
  /** Called once every call is closed (default: `process.exit(0)`). */
  onDrained?: () => void | Promise<void>
  /** Default `['SIGTERM', 'SIGINT']`. */
  signals?: NodeJS.Signals[]
}

/**
 * On SIGTERM (what orchestrators send before stopping a process): stop accepting calls, drain the
 * calls in progress, then exit. Returns a function that removes the signal handlers.
 */
export function drainOnSignal(calls: MicdropCalls, options: DrainOnSignalOptions = {}): () => void {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT']
  const onSignal = () => {
    for (const signal of signals) process.off(signal, onSignal)
    try {
      options.stopAccepting?.()
    } catch {
      // Already closed: nothing more to stop.
    }
    void calls
      .drain(options)
      .then(() => (options.onDrained ? options.onDrained() : process.exit(0)))
  }
  for (const signal of signals) process.once(signal, onSignal)
  return () => {
    for (const signal of signals) process.off(signal, onSignal)
  }
}
