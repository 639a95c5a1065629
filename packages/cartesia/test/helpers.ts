import { Logger } from '@openmic/core'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach } from 'vitest'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Runs `cleanup` after the test (in reverse order of registration). */
export function after(cleanup: () => unknown): void {
  cleanups.push(cleanup)
}

/** Records the events `names` of `emitter` and what it logged. */
export function record<T extends { on(name: any, listener: (...args: any[]) => void): unknown }>(
  emitter: T & { logger?: Logger },
  names: string[]
) {
  const events: Array<{ type: string; value: unknown }> = []
  const logs: string[] = []
  emitter.logger = new Logger('test', (_prefix, ...message) => logs.push(message.join(' ')))
  for (const name of names) emitter.on(name, (value: unknown) => events.push({ type: name, value }))
  return {
    events,
    logs,
    of: (type: string) => events.filter((event) => event.type === type).map((e) => e.value),
  }
}

export async function until(done: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now()
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error('Timed out')
    await sleep(2)
  }
}

export { sleep }
