/** Mistral's stream broke: it ended with `finish_reason: "error"` or without a finish reason. */
export class MistralStreamError extends Error {
  override readonly name = 'MistralStreamError'
}
