import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/**
 * Mistral's stream broke: it ended with `finish_reason: "error"` or without a finish reason, or
 * the answer had no event stream. openmic retries it when no text was spoken yet (up to
 * `maxRetry`); after text, the text is kept. The message starts with `MistralAgent:`.
 */
export class MistralStreamError extends ProviderError {
  override readonly name = 'MistralStreamError'
  constructor(message: string, details?: ProviderErrorDetails) {
    super('MistralAgent', message, details)
  }
}
