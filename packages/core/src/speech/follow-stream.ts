import type { Readable } from 'node:stream'

/** What to do with a followed stream's events. */
export interface StreamHandlers<Chunk> {
  data(chunk: Chunk): void
  end(): void
  error(error: unknown): void
}

/**
 * Listens to a stream's `data`, `end` and `error` (the last two once); returns the function that
 * stops listening. A TTS follows the text of each `speak()` this way, and lets go of it when the
 * speak is replaced or cancelled, without touching the stream itself (it belongs to the caller).
 */
export function followStream<Chunk = Buffer | string>(
  stream: Readable,
  handlers: StreamHandlers<Chunk>
): () => void {
  const onData = (chunk: Chunk) => handlers.data(chunk)
  const onEnd = () => handlers.end()
  const onError = (error: unknown) => handlers.error(error)
  stream.on('data', onData)
  stream.once('end', onEnd)
  stream.once('error', onError)
  return () => {
    stream.off('data', onData)
    stream.off('end', onEnd)
    stream.off('error', onError)
  }
}
