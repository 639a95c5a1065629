import { createHook } from 'node:async_hooks'
import { expect } from 'vitest'

/** Resources that never belong to a speech client: a listening server is the test's fake provider. */
const SERVER_TYPES = new Set(['TCPSERVERWRAP', 'PIPESERVERWRAP'])

interface Tracked {
  type: string
  resource: { hasRef?: () => boolean }
  /** Where it was created: the first frame outside Node's internals. */
  createdAt: string
}

/**
 * Watches the timers, sockets and other handles created from now on, to tell which of them are
 * still alive and keeping the process alive later. What a fake server in the same process does
 * (its listening socket, the connections it accepted, the timers it set while answering) is not
 * counted: only what the code under test opened is.
 */
export class ResourceWatch {
  private readonly alive = new Map<number, Tracked>()
  /** Listening servers and what came from them (accepted sockets, their timers...). */
  private readonly serverSide = new Set<number>()
  /** Set while the watch creates its own timer, which is not counted. */
  private own = false
  private readonly hook = createHook({
    init: (id, type, triggerId, resource) => {
      if (this.own) return
      if (SERVER_TYPES.has(type) || this.serverSide.has(triggerId)) {
        this.serverSide.add(id)
        return
      }
      const tracked = resource as Tracked['resource']
      if (typeof tracked.hasRef !== 'function') return
      this.alive.set(id, {
        type,
        resource: tracked,
        createdAt: type === 'Immediate' ? '' : caller(),
      })
    },
    destroy: (id) => {
      this.alive.delete(id)
    },
  })

  constructor() {
    this.hook.enable()
  }

  /**
   * Waits until every resource created since the watch started is released (or no longer keeps
   * the process alive), up to `timeoutMs`, then stops watching. Returns what is left, e.g.
   * `['Timeout created at OpenaiSTT.reconnect (file:///…/OpenaiSTT.js:80:5)']`.
   */
  async leftOver(timeoutMs: number, ignore: readonly string[] = []): Promise<string[]> {
    const deadline = Date.now() + timeoutMs
    try {
      for (;;) {
        const left = [...this.alive.values()]
          .filter(({ type, resource }) => !ignore.includes(type) && resource.hasRef?.())
          .map(({ type, createdAt }) => (createdAt ? `${type} created at ${createdAt}` : type))
        if (left.length === 0 || Date.now() >= deadline) return left
        // Destroy hooks run asynchronously: a timer that just fired is reported a moment later.
        this.own = true
        const waited = new Promise((resolve) => setTimeout(resolve, 20))
        this.own = false
        await waited
      }
    } finally {
      this.stop()
    }
  }

  stop(): void {
    this.hook.disable()
  }
}

function caller(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1)
  const outside = frames.filter(
    (line) => !line.includes('node:') && !line.includes('/conformance/resources.')
  )
  // The caller's own code says more than the library it called (`ws`, `undici`...).
  const frame = outside.find((line) => !line.includes('/node_modules/')) ?? outside[0]
  return frame?.trim().replace(/^at /, '') ?? 'an unknown place'
}

/** Fails unless every resource `watch` saw was released within `timeoutMs`. */
export async function expectReleased(
  watch: ResourceWatch,
  timeoutMs: number,
  ignore: readonly string[]
): Promise<void> {
  const left = await watch.leftOver(timeoutMs, ignore)
  expect(left, `still active ${timeoutMs} ms after destroy(): ${left.join('; ')}`).toEqual([])
}
