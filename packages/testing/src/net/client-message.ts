/**
 * A text frame a client sent to a fake, as the fake records it: its JSON value, or the text itself
 * when it is not JSON (a fake keeps malformed frames, and answers them as its provider would).
 */
export function parseClientMessage<T = unknown>(text: string): T | string {
  try {
    return JSON.parse(text) as T
  } catch {
    return text
  }
}
