import { ModelEventStream, type EmitPart } from './model-event-stream.js'
import type { ModelStreamPart } from './types.js'

/**
 * Reads a model call's parts: a {@link ModelEventStream} through its fast path, any other
 * `AsyncIterable` part by part. Resolves when the parts end; returns early once `stopped()` is
 * true after a part.
 */
export function forEachPart(
  parts: AsyncIterable<ModelStreamPart>,
  emit: EmitPart,
  stopped: () => boolean
): Promise<void> {
  // Returned as is, not awaited: each promise layer delays the end of every answer.
  if (parts instanceof ModelEventStream) return parts.forEachPart(emit, stopped)
  return iterateParts(parts, emit, stopped)
}

async function iterateParts(
  parts: AsyncIterable<ModelStreamPart>,
  emit: EmitPart,
  stopped: () => boolean
): Promise<void> {
  const iterator = parts[Symbol.asyncIterator]()
  let completed = false
  try {
    for (let result = await iterator.next(); !result.done; result = await iterator.next()) {
      emit(result.value)
      if (stopped()) return
    }
    completed = true
  } finally {
    // Not awaited: a source stuck in an await (a stalled request) must not hold up the caller.
    if (!completed) iterator.return?.().catch(() => {})
  }
}
