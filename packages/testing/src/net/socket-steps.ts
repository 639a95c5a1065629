import { setTimeout as sleep } from 'node:timers/promises'

/**
 * The steps every scripted WebSocket fake shares, whatever the provider: raw frames, waits, a
 * close, a reset and a stall. Each fake's step type is its own messages plus some of these.
 */
export type SocketStep =
  /** Any server message, as a value (JSON-encoded). */
  | { type: 'event'; data: unknown }
  /** Text sent as one frame as it is (malformed JSON, unknown shapes). */
  | { type: 'raw'; text: string }
  /** Wait before the next step. */
  | { type: 'delay'; ms: number }
  /** Close the WebSocket with this code (default 1000): a close handshake. */
  | { type: 'close'; code?: number; reason?: string }
  /** Destroy the TCP connection without a close frame (the client sees 1006). */
  | { type: 'reset' }
  /** Send nothing more for this reply. */
  | { type: 'stall' }

/** The side of a fake session a {@link SocketStep} acts on. */
export interface SocketStepTarget {
  send(message: unknown): void
  sendRaw?(text: string): void
  close(code?: number, reason?: string): void
  reset(): void
}

/** Plays one shared step; resolves false when the reply ends there (close, reset, stall). */
export async function playSocketStep(target: SocketStepTarget, step: SocketStep): Promise<boolean> {
  switch (step.type) {
    case 'event':
      target.send(step.data)
      return true
    case 'raw':
      if (target.sendRaw) target.sendRaw(step.text)
      else target.send(step.text)
      return true
    case 'delay':
      await sleep(step.ms)
      return true
    case 'close':
      target.close(step.code ?? 1000, step.reason ?? '')
      return false
    case 'reset':
      target.reset()
      return false
    case 'stall':
      return false
  }
}
