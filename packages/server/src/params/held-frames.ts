import type { RawData, WebSocket } from 'ws'

/** A frame received before the call's handler was attached. */
export interface HeldFrame {
  data: RawData
  isBinary: boolean
}

interface Hold {
  frames: HeldFrame[]
  listener: (data: RawData, isBinary: boolean) => void
}

const holds = new WeakMap<WebSocket, Hold>()

/**
 * Keeps the frames that arrive after the params and before `MicdropServer` is attached (ws emits
 * all frames of a TCP chunk at once, so a `StartSpeaking` right behind the params would be lost),
 * and pauses the socket so that no more are read meanwhile.
 */
export function holdFrames(socket: WebSocket): void {
  if (holds.has(socket)) return
  const frames: HeldFrame[] = []
  const listener = (data: RawData, isBinary: boolean) => frames.push({ data, isBinary })
  socket.on('message', listener)
  holds.set(socket, { frames, listener })
  socket.pause()
}

/** Stops holding frames, resumes the socket and returns what was held. */
export function releaseHeldFrames(socket: WebSocket): HeldFrame[] {
  const hold = holds.get(socket)
  if (!hold) return []
  holds.delete(socket)
  socket.off('message', hold.listener)
  socket.resume()
  return hold.frames
}
