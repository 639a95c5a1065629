import type { RawData, WebSocket } from 'ws'

interface HeldFrame {
  data: RawData
  isBinary: boolean
}

/** Set on a socket whose params frame `waitForParams` read: the client has spoken first. */
const paramsRead = Symbol('openmic.paramsRead')

/** Whether `waitForParams` read the params of `socket` (its client sent a frame already). */
export function readParamsOf(socket: WebSocket): boolean {
  return (socket as WebSocket & { [paramsRead]?: boolean })[paramsRead] === true
}

/** Marks `socket` as one whose params frame `waitForParams` read (see `readParamsOf`). */
export function markParamsRead(socket: WebSocket): void {
  ;(socket as WebSocket & { [paramsRead]?: boolean })[paramsRead] = true
}

/**
 * Holds a socket's frames until the app listens to it again, then gives them back on the socket
 * itself. `ws` emits a frame whether anyone listens or not: a `StartSpeaking` sent right behind
 * the params, or a carrier's `connected` and `start` sent right after the upgrade, arrive while
 * the call's providers are still being built, and would be lost. The socket is paused meanwhile
 * so that nothing more is read.
 *
 * When the next `message` listener is attached (by `new MicdropServer(socket, ...)` or the app's
 * own handler), the held frames are emitted again as `message` events, in order, then the socket
 * resumes. They are emitted on the next turn of the event loop, so that whatever the app sets up
 * right after attaching (a call's opening) comes first. If the socket closes first, they are
 * dropped with it.
 *
 * @example
 * wss.on('connection', (socket) => {
 *   holdFrames(socket) // the carrier's first messages wait for the call
 *   void createProviders().then((providers) => new TwilioServer(socket, { ...providers, vad }))
 * })
 */
export function holdFrames(socket: WebSocket): void {
  const frames: HeldFrame[] = []
  let over = false
  const hold = (data: RawData, isBinary: boolean) => {
    frames.push({ data, isBinary })
  }
  const stop = () => {
    over = true
    socket.off('message', hold)
    socket.off('newListener', onNewListener)
    socket.off('close', stop)
  }
  const release = () => {
    if (over) return // the socket closed meanwhile
    stop()
    for (const { data, isBinary } of frames) socket.emit('message', data, isBinary)
    socket.resume()
  }
  const onNewListener = (event: string | symbol) => {
    if (event !== 'message') return
    socket.off('newListener', onNewListener)
    setImmediate(release)
  }
  socket.on('message', hold)
  socket.on('close', stop)
  socket.on('newListener', onNewListener)
  socket.pause()
}
