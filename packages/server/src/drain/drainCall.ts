import type { CallController } from '../call/CallController.js'
import type { CallStore } from '../store/CallStore.js'

const POLL_MS = 25
/** WebSocket close code 1012 (service restart): clients reconnect. */
const SERVICE_RESTART = 1012

/** What drainCall closes: the call's socket side. */
interface Closable {
  close(code: number, reason?: string): void
  readonly isEnded: boolean
}

/**
 * Waits until the call is between turns (no answer spoken, no user turn open) or `deadline` (epoch
 * ms) comes, waits for its store writes (same deadline), then closes it with 1012.
 */
export async function drainCall(
  server: Closable,
  call: CallController,
  store: CallStore | undefined,
  deadline: number
): Promise<void> {
  while (!server.isEnded && call.busy && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  if (server.isEnded) return
  await store?.flush(deadline)
  server.close(SERVICE_RESTART, 'Service restart')
}
