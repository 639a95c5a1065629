/** How the caller's keys reach the agent (the `dtmfToAgent` option). */
export interface DtmfToAgentOptions {
  /** The digits typed so far are sent after this long without a key (default 2000 ms). */
  pauseMs?: number
  /** A key that sends the digits typed so far at once, itself left out (default `#`). */
  finishKey?: string
}

const DEFAULT_PAUSE_MS = 2000

/**
 * The keys a caller types, gathered into one entry (a PIN, a menu choice): complete at the finish
 * key or after a pause, then taken with `take()` by whoever `onComplete` tells.
 */
export class DtmfDigits {
  private digits = ''
  private timer?: NodeJS.Timeout
  private readonly pauseMs: number
  private readonly finishKey: string

  constructor(
    options: DtmfToAgentOptions,
    private readonly onComplete: (digits: string) => void
  ) {
    this.pauseMs = options.pauseMs ?? DEFAULT_PAUSE_MS
    this.finishKey = options.finishKey ?? '#'
  }

  /** A key the caller pressed. */
  press(digit: string): void {
    clearTimeout(this.timer)
    if (digit === this.finishKey) return this.complete()
    this.digits += digit
    this.timer = setTimeout(() => this.complete(), this.pauseMs)
  }

  /** Forgets the digits not sent yet (the call ended). */
  destroy(): void {
    clearTimeout(this.timer)
    this.digits = ''
  }

  private complete() {
    const digits = this.digits
    this.digits = ''
    if (digits !== '') this.onComplete(digits)
  }
}
