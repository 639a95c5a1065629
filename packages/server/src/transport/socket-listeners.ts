import type { RawData, WebSocket } from 'ws'

/** What a call does with its `ws` socket's events (`call` is the call the socket carries). */
export interface SocketEvents<Call> {
  message(call: Call, data: RawData, isBinary: boolean): void
  close(call: Call, code?: number): void
  error(call: Call, error: Error): void
}

/** The call a socket carries, and what it does with the socket's events (two fields, no object). */
const CALL = Symbol('openmic.socketCall')
const EVENTS = Symbol('openmic.socketEvents')
type CarryingSocket = WebSocket & { [CALL]?: unknown; [EVENTS]?: SocketEvents<unknown> }

/**
 * Puts a call's listeners on its socket: three functions shared by every call, which find the call
 * on the socket they are called on (an idle call holds no closure per listener). Undone by
 * {@link stopListeningToSocket}.
 */
export function listenToSocket<Call>(
  socket: WebSocket,
  call: Call,
  events: SocketEvents<Call>
): void {
  const carrying = socket as CarryingSocket
  carrying[CALL] = call
  carrying[EVENTS] = events as SocketEvents<unknown>
  socket.on('message', onMessage)
  socket.on('close', onClose)
  socket.on('error', onError)
}

/** Takes the call's listeners off its socket, and lets go of the call. */
export function stopListeningToSocket(socket: WebSocket): void {
  socket.off('message', onMessage)
  socket.off('close', onClose)
  socket.off('error', onError)
  const carrying = socket as CarryingSocket
  carrying[CALL] = undefined
  carrying[EVENTS] = undefined
}

function onMessage(this: CarryingSocket, data: RawData, isBinary: boolean) {
  this[EVENTS]?.message(this[CALL], data, isBinary)
}

function onClose(this: CarryingSocket, code?: number) {
  this[EVENTS]?.close(this[CALL], code)
}

function onError(this: CarryingSocket, error: Error) {
  this[EVENTS]?.error(this[CALL], error)
}
