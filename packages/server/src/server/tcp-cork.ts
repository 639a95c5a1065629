import type { WebSocket } from 'ws'

/** Holds back the writes of a connection (`cork`) and lets them out together (`uncork`). */
export interface Cork {
  cork(): void
  uncork(): void
}

/**
 * The connection under a `ws` socket, to gather a burst of frames into one system call. `ws` keeps
 * it in `_socket`, a property it does not document (also there under `@fastify/websocket`), so this
 * is the one place that reads it. Returns `undefined` when it is absent or cannot be corked
 * (another `ws` version, a wrapper socket): frames are then sent one by one with `socket.send`.
 */
export function corkOf(socket: WebSocket): Cork | undefined {
  const tcp = (socket as unknown as { _socket?: Partial<Cork> })._socket
  if (typeof tcp?.cork !== 'function' || typeof tcp.uncork !== 'function') return undefined
  return tcp as Cork
}
