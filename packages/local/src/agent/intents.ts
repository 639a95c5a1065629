/** What the user asked, as far as the local agent can tell. */
export type Intent = 'time' | 'goodbye' | 'hello' | 'thanks' | 'other'

const INTENTS: Array<[Intent, RegExp]> = [
  ['goodbye', /\b(good ?bye|bye|see you( later)?|hang up|end the call)\b/],
  ['time', /\b(time|clock|hour)\b/],
  ['thanks', /\b(thanks|thank you)\b/],
  ['hello', /\b(hello|hi|hey|good (morning|afternoon|evening))\b/],
]

/**
 * Finds the intent of a user message, tolerant of what speech recognition makes of it
 * ("good bye", "what time is a"). The first match wins, in the order above.
 */
export function detectIntent(message: string): Intent {
  const text = message.toLowerCase().replace(/[^\p{L}\p{N}' ]+/gu, ' ')
  return INTENTS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other'
}
