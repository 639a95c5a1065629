import { ProviderError, type ProviderErrorDetails } from '@openmic/core'
import { MistralError } from '@mistralai/mistralai/models/errors'
import { errorBodyMessage } from '@openmic/core/provider'

/** An error naming MistralTTS and the HTTP status, keeping the SDK's error as its cause. */
export class MistralTTSError extends ProviderError {
  override readonly name = 'MistralTTSError'
  /** `details.status`: the HTTP status of the failed request, when there was a response. */
  constructor(message: string, details?: ProviderErrorDetails) {
    super('MistralTTS', message, details)
  }
}

/** The error a failed speech request fails the `speak()` with. */
export function toMistralTTSError(error: unknown): unknown {
  if (error instanceof MistralError) {
    const detail = errorBodyMessage(error.body) || error.message
    return new MistralTTSError(`HTTP ${error.statusCode} ${detail}`, {
      status: error.statusCode,
      cause: error,
    })
  }
  if (error instanceof Error && error.name === 'AbortError') return error
  return new MistralTTSError(`request failed (${messageOf(error)})`, { cause: error })
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
