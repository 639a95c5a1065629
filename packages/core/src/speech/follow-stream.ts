import type { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'

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

/**
 * {@link followStream} for a stream of text: `data` gets strings, UTF-8 bytes decoded so that a
 * character split across two chunks arrives whole, and what the decoder still held is handed over
 * before `end`.
 */
export function followText(stream: Readable, handlers: StreamHandlers<string>): () => void {
  const decoder = new StringDecoder('utf8')
  return followStream<Buffer | string>(stream, {
    data: (chunk) => handlers.data(typeof chunk === 'string' ? chunk : decoder.write(chunk)),
    end: () => {
      const rest = decoder.end()
      if (rest !== '') handlers.data(rest)
      handlers.end()
    },
    error: (error) => handlers.error(error),
  })
}
