import { Readable } from 'node:stream'

const pulledByPush = () => {}

/**
 * A readable stream the server pushes into (an utterance's audio for the STT, an answer's text for
 * the TTS). Lighter than a `PassThrough`: no write side, so no callback or tick per chunk; a chunk
 * pushed while the reader flows reaches its `data` listener at once, in order with the call's
 * other events.
 */
export function createPushStream(): Readable {
  const stream = new Readable({ read: pulledByPush })
  // A new Readable holds back what is pushed before its first read() until the next tick; one
  // empty read lifts that, as a Transform does for itself.
  stream.read(0)
  return stream
}
