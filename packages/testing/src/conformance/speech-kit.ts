import { afterAll, afterEach, beforeAll, expect } from 'vitest'

/** Resolves after `ms` (0: after the events already queued, through `setImmediate`). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)))
}

/**
 * Fails the test during which a promise rejection went unhandled or an exception was uncaught
 * (vitest would report it too, but against no test in particular). Call inside a `describe`.
 */
export function failOnUnhandledErrors(): void {
  const errors: unknown[] = []
  const record = (error: unknown) => errors.push(error)
  beforeAll(() => {
    process.on('unhandledRejection', record)
    process.on('uncaughtException', record)
  })
  afterAll(() => {
    process.off('unhandledRejection', record)
    process.off('uncaughtException', record)
  })
  afterEach(async () => {
    // Rejections are reported once the microtask queue is empty: let them surface.
    await pause(0)
    const seen = errors.splice(0)
    expect(seen.map(String), 'unhandled rejections or uncaught exceptions').toEqual([])
  })
}

/** Options shared by the STT and TTS suites. */
export interface SpeechConformanceTiming {
  /** Longest wait for an expected event (a transcript, `AudioEnd`, `Failed`), in ms. Default 5 000. */
  timeoutMs?: number
  /**
   * How long the suite watches for events that must not come (after a transcript, `AudioEnd`,
   * `cancel()` or `destroy()`), in ms. Default 400.
   */
  quietMs?: number
  /**
   * How long `destroy()` may take to release its sockets and timers, in ms (default 1 000). The
   * suite watches (with `node:async_hooks`) every timer and handle created from `make()` on, and
   * fails if one still keeps the process alive after that, naming where it was created. A fake
   * server's listening socket, and its side of the connections it accepted, are not counted.
   */
  releaseTimeoutMs?: number
  /**
   * Resource types (`node:async_hooks` names: `Timeout`, `TCPWRAP`, ...) not to count in that
   * check. Default none.
   */
  ignoreResources?: string[]
}

/** Root mean square level of PCM16 audio, in dB relative to full scale (-Infinity for silence). */
export function levelDbfs(audio: Buffer): number {
  const count = Math.floor(audio.length / 2)
  let sum = 0
  for (let i = 0; i < count; i++) sum += audio.readInt16LE(i * 2) ** 2
  const rms = Math.sqrt(sum / Math.max(1, count))
  return 20 * Math.log10(rms / 32768)
}

/** The suffix naming why a test is skipped: ` (skipped: the class declares failures: false)`. */
export function skipped(skip: boolean, declaration: string): string {
  return skip ? ` (skipped: the class declares ${declaration})` : ''
}
