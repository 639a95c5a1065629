/** Where a {@link Logger} writes its lines. Defaults to `console.log`. */
export type LogSink = (prefix: string, ...message: any[]) => void

const consoleSink: LogSink = (prefix, ...message) => console.log(prefix, ...message)

/**
 * Opt-in debug logging, as in Micdrop: attach one to an agent, STT, TTS or server
 * (`agent.logger = new Logger('Agent')`) and it prints each line prefixed with its name and
 * the seconds elapsed since the logger was created.
 *
 * @example
 * const logger = new Logger('Agent')
 * logger.log('Answering') // [Agent 0.012] Answering
 */
export class Logger {
  private readonly startedAt = performance.now()

  /**
   * @param name - Shown at the start of every line.
   * @param sink - Where lines go; `console.log` unless given (tests and apps can collect them).
   */
  constructor(
    public readonly name: string,
    private readonly sink: LogSink = consoleSink
  ) {}

  /** Seconds since this logger was created. */
  get uptime(): number {
    return (performance.now() - this.startedAt) / 1000
  }

  log(...message: any[]): void {
    this.sink(`[${this.name} ${this.uptime.toFixed(3)}]`, ...message)
  }
}
