import type { MicdropServer } from '@openmic/server'
import type { WebSocket } from 'ws'
import {
  simulateCall,
  type CallScript,
  type SimulatedParts,
  type SimulateCallOptions,
  type SimulationResult,
  type ViolationName,
} from '../../src/simulator/index.js'
import { fullScript } from '../../src/simulator/script.js'
import { defaultServer } from '../../src/simulator/simulate-call.js'

/** Names of the violations of a call, once each, in order. */
export function names(result: SimulationResult): ViolationName[] {
  return [...new Set(result.violations.map((violation) => violation.name))]
}

/** What a test does to the default server of `script` (or to its socket) to break it. */
export type Breakage = (server: MicdropServer, socket: WebSocket, parts: SimulatedParts) => void

/**
 * The default server of `script`, `breakage` applied: on the socket (its `send`, listeners added
 * after the server's, which run once it handled a frame) or the server itself.
 */
export function broken(script: CallScript, breakage: Breakage): SimulateCallOptions {
  return {
    server: (socket, parts) => {
      const server = defaultServer(socket, parts, fullScript(script))
      breakage(server, socket, parts)
      return server
    },
  }
}

/**
 * Outgoing frames go through `send`, which may drop, change, repeat or delay them (`deliver`
 * sends one as the server meant to).
 */
export function interceptSend(
  socket: WebSocket,
  send: (data: string | Buffer, deliver: (data?: string | Buffer) => void) => void
): void {
  const original = socket.send.bind(socket) as (data: unknown, options?: unknown) => void
  socket.send = ((data: string | Buffer, options?: unknown) =>
    send(data, (frame = data) => original(frame, options))) as WebSocket['send']
}

/**
 * The reply openmic's target server gives to the client's `Hello` (today's server does not send
 * it yet): with it the openmic client pauses the answer at the user's speech.
 */
export function answerHello(socket: WebSocket): void {
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isBinary && data.toString().startsWith('Hello ')) socket.send('Hello {"resume":true}')
  })
}

/** The call of `script`, against the default server, and against it broken by `breakage`. */
export async function withAndWithout(script: CallScript, breakage: Breakage) {
  return {
    intact: await simulateCall(script),
    broken: await simulateCall(script, broken(script, breakage)),
  }
}
