import { expect } from 'vitest'

/** One event emitted by the STT or TTS under test. */
export interface LoggedEvent {
  name: string
  args: unknown[]
  /** Emitted after `destroy()` was called (a contract violation). */
  afterDestroy: boolean
}

interface Emitter {
  on(event: string, listener: (...args: unknown[]) => void): unknown
  emit(event: string, ...args: unknown[]): boolean
}

/**
 * Records the events an emitter emits, as its listeners receive them. Once `markDestroyed()` is
 * called (`destroy()` removes all listeners), it records every `emit` call instead: nothing should
 * be emitted any more.
 */
export class EventLog {
  readonly events: LoggedEvent[] = []
  private destroyed = false
  private readonly waiters = new Set<() => void>()

  constructor(emitter: object, names: readonly string[]) {
    const target = emitter as Emitter
    for (const name of names) target.on(name, (...args) => this.push(name, args))
    const original = target.emit
    target.emit = (name: string, ...args: unknown[]) => {
      if (this.destroyed) this.push(name, args)
      return original.call(target, name, ...args)
    }
  }

  private push(name: string, args: unknown[]) {
    this.events.push({ name, args, afterDestroy: this.destroyed })
    for (const waiter of [...this.waiters]) waiter()
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

  /** Where the first event emitted after `destroy()` is in the log (its length if none). */
  firstAfterDestroy(): number {
    const index = this.events.findIndex((event) => event.afterDestroy)
    return index < 0 ? this.events.length : index
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

/** Fails if anything was emitted after `destroy()`. */
export function expectNothingAfterDestroy(log: EventLog): void {
  const late = log.afterDestroy()
  expect(late, `emitted after destroy(): ${log.summary(log.firstAfterDestroy())}`).toEqual([])
}
