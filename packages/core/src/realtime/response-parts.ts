import type { ModelStreamPart } from '../model/types.js'
import { ProviderError } from '../retry/ProviderError.js'
import type { RealtimeResponse } from './RealtimeResponse.js'
import type { RealtimeResponseEnd } from './types.js'

/**
 * A realtime response as the parts core's step loop reads (a model call): its transcript as text,
 * its function calls as tool calls, its first audio as a sign of life (the first-token timeout
 * counts it), and the tokens its end reports as its usage. Aborting `signal` cancels the response.
 * A response that failed, or was cancelled by the provider itself, throws its error: the step loop
 * retries it or fails the answer.
 */
export async function* responseParts(
  response: RealtimeResponse,
  signal: AbortSignal,
  provider: string
): AsyncGenerator<ModelStreamPart> {
  const queue: ModelStreamPart[] = []
  let end: RealtimeResponseEnd | undefined
  let heard = false
  let wake: (() => void) | undefined
  const notify = () => {
    wake?.()
    wake = undefined
  }
  const stop = response.follow(
    (output) => {
      if (output.type === 'transcript' && output.delta) {
        queue.push({ type: 'text', delta: output.delta })
      } else if (output.type === 'function-call') {
        queue.push({
          type: 'tool-call',
          toolCall: {
            role: 'tool_call',
            toolCallId: output.callId,
            toolName: output.name,
            parameters: output.arguments,
          },
        })
      } else if (output.type === 'audio' && !heard) {
        heard = true
        queue.push({ type: 'reasoning' })
      } else return
      notify()
    },
    (ended) => {
      end = ended
      notify()
    }
  )
  const onAbort = () => {
    response.cancel()
    notify()
  }
  signal.addEventListener('abort', onAbort, { once: true })
  if (signal.aborted) onAbort()
  try {
    for (;;) {
      const part = queue.shift()
      if (part) {
        yield part
        continue
      }
      if (signal.aborted) return
      if (end) {
        // Read by the step loop into the call's report
        if (end.usage) yield { type: 'usage', usage: end.usage }
        if (end.status === 'failed')
          throw end.error ?? new ProviderError(provider, 'response failed')
        if (end.status === 'cancelled' && !response.cancelled) {
          throw new ProviderError(provider, 'the response was cancelled by the provider', {
            retryable: true,
          })
        }
        return
      }
      await new Promise<void>((resolve) => (wake = resolve))
    }
  } finally {
    stop()
    signal.removeEventListener('abort', onAbort)
  }
}
