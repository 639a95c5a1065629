/**
 * The chunks of a response body as they arrive. Leaving the loop early (cancel, failure) cancels
 * the body, so the connection is released at once.
 */
export async function* readChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  let done = false
  try {
    while (true) {
      const next = await reader.read()
      if (next.done) {
        done = true
        return
      }
      yield next.value
    }
  } finally {
    // The body may already have failed (aborted, reset): there is nothing left to release then.
    if (!done) await reader.cancel().catch(() => {})
  }
}
