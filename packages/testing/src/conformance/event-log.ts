/** One event emitted by the STT or TTS under test. */
export interface LoggedEvent {
  name: string
  args: unknown[]
  /** Emitted after `destroy()` was called (a contract violation). */
  afterDestroy: boolean
}

interface Emitter {
  emit(event: string, ...args: unknown[]): boolean
}

/**
 * Records every event an emitter emits, listeners or not, by wrapping its `emit`: events emitted
 * after `destroy()` (which removes all listeners) are seen too.
 */
export class EventLog {
  readonly events: LoggedEvent[] = []
  private destroyed = false
  private readonly waiters = new Set<() => void>()

  constructor(emitter: object) {
    const target = emitter as Emitter
    const original = target.emit
    target.emit = (name: string, ...args: unknown[]) => {
      this.events.push({ name, args, afterDestroy: this.destroyed })
      for (const waiter of [...this.waiters]) waiter()
      return original.call(target, name, ...args)
    }
  }

  /** From now on, events count as emitted after `destroy()`. */
  markDestroyed(): void {
    this.destroyed = true
  }

  /** Where the next event will be logged: pass it to `since()` to see what came after. */
  get mark(): number {
    return this.events.length
  }

  /** The events logged since `mark`, optionally only those named. */
  since(mark: number, ...names: string[]): LoggedEvent[] {
    const events = this.events.slice(mark)
    return names.length === 0 ? events : events.filter((event) => names.includes(event.name))
  }

  /** The events emitted after `destroy()`, described (none, when the contract is met). */
  afterDestroy(): string[] {
    return this.events.filter((event) => event.afterDestroy).map(describeEvent)
  }

  /** Resolves once `done()` is true (checked after each event); rejects after `timeoutMs`. */
  until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    return this.wait(done, timeoutMs).then((met) => {
      if (!met) throw new Error(`${what}: not within ${timeoutMs} ms (events: ${this.summary()})`)
    })
  }

  /** Resolves with true once `done()` is true, or with false after `timeoutMs`. */
  wait(done: () => boolean, timeoutMs: number): Promise<boolean> {
    if (done()) return Promise.resolve(true)
    return new Promise((resolve) => {
      const finish = (met: boolean) => {
        clearTimeout(timer)
        this.waiters.delete(check)
        resolve(met)
      }
      const check = () => done() && finish(true)
      const timer = setTimeout(() => finish(false), timeoutMs)
      this.waiters.add(check)
    })
  }

  /** The events so far, for failure messages: `Audio×12, AudioEnd, Failed(Error: x)`. */
  summary(mark = 0): string {
    const parts: string[] = []
    let previous = ''
    let count = 0
    const flush = () => {
      if (count > 0) parts.push(count > 1 ? `${previous}×${count}` : previous)
    }
    for (const event of this.events.slice(mark)) {
      const label = describeEvent(event)
      if (label === previous) {
        count++
        continue
      }
      flush()
      previous = label
      count = 1
    }
    flush()
    return parts.length > 0 ? parts.join(', ') : 'none'
  }
}

function describeEvent({ name, args, afterDestroy }: LoggedEvent): string {
  const suffix = afterDestroy ? ' after destroy()' : ''
  if (name === 'Transcript' || name === 'Partial')
    return `${name}(${JSON.stringify(args[0])})${suffix}`
  if (name === 'Failed') return `Failed(${String(args[0])})${suffix}`
  return name + suffix
}
