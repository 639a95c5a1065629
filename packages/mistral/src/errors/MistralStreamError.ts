/**
 * Mistral's stream broke: it ended with `finish_reason: "error"` or without a finish reason.
 * openmic retries it when no text was spoken yet (up to `maxRetry`); after text, the text is kept.
 */
export class MistralStreamError extends Error {
  override readonly name = 'MistralStreamError'
}
