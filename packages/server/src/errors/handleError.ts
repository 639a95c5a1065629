import { MicdropCloseCodes } from '@openmic/core/protocol'
import { WebSocket } from 'ws'
import { MicdropError } from './MicdropError.js'

/** Close reasons are limited to 123 bytes by the WebSocket protocol. */
const MAX_REASON_BYTES = 123

/**
 * Ends a call because of an error: closes the socket with the error's code when it is a
 * {@link MicdropError}, else with 1011 (internal error). Does nothing if the socket is already
 * closing, and adds no listener (frames held by {@link waitForParams} are dropped with the socket).
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
  if (socket.readyState !== WebSocket.OPEN && socket.readyState !== WebSocket.CONNECTING) return
  // waitForParams may have paused it; the closing handshake needs the client's reply to be read.
  socket.resume()
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
