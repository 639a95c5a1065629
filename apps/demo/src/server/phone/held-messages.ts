import type { RawData, WebSocket } from 'ws'

/** The messages a socket received while its call was being built. */
export interface HeldMessages {
  /** Gives them back on the socket, in order, to the listeners attached since (the call's). */
  release(): void
  /** Forgets them (the call could not be built). */
  drop(): void
}

/**
 * Listens to `socket` at once and keeps what it receives until the call that will read it exists.
 * A `ws` socket emits a message whether anyone listens or not: Twilio sends `connected` and
 * `start` right after the upgrade, while the call's agent, STT and TTS are still being built, and
 * they would be lost. If the socket closes first, the messages go with it.
 */
export function holdMessages(socket: WebSocket): HeldMessages {
  const held: Array<[data: RawData, isBinary: boolean]> = []
  const hold = (data: RawData, isBinary: boolean) => {
    held.push([data, isBinary])
  }
  const drop = () => {
    socket.off('message', hold)
    socket.off('close', drop)
    held.length = 0
  }
  socket.on('message', hold)
  socket.on('close', drop)
  return {
    release() {
      const messages = held.splice(0)
      drop()
      for (const [data, isBinary] of messages) {
        if (socket.readyState !== socket.OPEN) return
        socket.emit('message', data, isBinary)
      }
    },
    drop,
  }
}
