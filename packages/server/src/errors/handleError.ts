import { MicdropCloseCodes } from '@openmic/core/protocol'
import { WebSocket } from 'ws'
import { releaseHeldFrames } from '../params/held-frames.js'
import { MicdropError } from './MicdropError.js'

/** Close reasons are limited to 123 bytes by the WebSocket protocol. */
const MAX_REASON_BYTES = 123

/**
 * Ends a call because of an error: closes the socket with the error's code when it is a
 * {@link MicdropError}, else with 1011 (internal error). Does nothing if the socket is already
 * closing, and leaves no listener behind.
 *
 * @example
 * try {
 *   const params = await waitForParams(socket, (p) => schema.parse(p))
 *   new MicdropServer(socket, { agent, stt, tts })
 * } catch (error) {
 *   handleError(socket, error)
 * }
 */
export function handleError(socket: WebSocket, error: unknown): void {
  releaseHeldFrames(socket)
  if (socket.readyState !== WebSocket.OPEN && socket.readyState !== WebSocket.CONNECTING) return
  const known = error instanceof MicdropError
  const code = known ? error.code : MicdropCloseCodes.InternalError
  const reason = known ? error.message : 'Internal error'
  socket.close(code, truncate(reason))
}

function truncate(reason: string): string {
  let text = reason
  while (Buffer.byteLength(text) > MAX_REASON_BYTES) text = text.slice(0, -1)
  return text
}
