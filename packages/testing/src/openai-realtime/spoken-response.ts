import type { FakeRealtimeUsage, FakeResponseStep } from './types.js'

/** Options of {@link spokenResponse}. */
export interface FakeSpokenResponseOptions {
  /** Wait this long after `response.create` before the first word (default 0). */
  firstAudioMs?: number
  /** Speech per character, in ms (default 60: about 15 characters a second, a natural pace). */
  msPerChar?: number
  /** Wait this long between two words (default 0: the rest comes as fast as it is made). */
  wordDelayMs?: number
  /** Function calls after the speech (or instead of it, with an empty text). */
  toolCalls?: Array<{ name: string; arguments?: string | Record<string, unknown>; callId?: string }>
  /** The tokens its `response.done` reports, cancelled or not (default: `usage: null`). */
  usage?: FakeRealtimeUsage
}

/**
 * The steps of a spoken response, as the API streams one: each word's transcript delta, then its
 * audio; then the function calls.
 */
export function spokenResponse(
  text: string,
  options: FakeSpokenResponseOptions = {}
): FakeResponseStep[] {
  const { firstAudioMs = 0, msPerChar = 60, wordDelayMs = 0 } = options
  const steps: FakeResponseStep[] = []
  if (options.usage) steps.push({ type: 'usage', usage: options.usage })
  if (firstAudioMs > 0) steps.push({ type: 'delay', ms: firstAudioMs })
  const words = text.match(/\s*\S+\s*/g) ?? []
  words.forEach((word, index) => {
    if (index > 0 && wordDelayMs > 0) steps.push({ type: 'delay', ms: wordDelayMs })
    steps.push({ type: 'transcript', delta: word })
    steps.push({ type: 'audio', ms: word.length * msPerChar })
  })
  for (const call of options.toolCalls ?? []) {
    const args =
      typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {})
    steps.push({ type: 'function_call', name: call.name, arguments: args, callId: call.callId })
  }
  return steps
}
