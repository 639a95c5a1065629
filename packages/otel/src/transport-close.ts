/** What a transport's socket (`ws`) offers to tell when it closed. */
interface Closable {
  once(event: 'close', listener: (code?: number) => void): unknown
}

/**
 * Calls `closed` with the close code when the call's transport closes: the servers that carry a
 * call on a WebSocket (`MicdropServer`, the phone servers) expose it as `socket`. Nothing for a
 * transport without one.
 */
export function onTransportClose(server: object, closed: (code?: number) => void): void {
  const socket = (server as { socket?: unknown }).socket
  if (typeof socket !== 'object' || socket === null) return
  if (typeof (socket as Partial<Closable>).once !== 'function') return
  ;(socket as Closable).once('close', (code?: number) => closed(code))
}
