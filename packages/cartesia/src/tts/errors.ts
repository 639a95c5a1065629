import { ProviderError } from '@openmic/core'

/** An error of CartesiaTTS: names the provider and the status or code Cartesia gave. */
export class CartesiaTTSError extends ProviderError {
  override readonly name = 'CartesiaTTSError'
  /**
   * @param status - the HTTP status of a refused connection, or the `status_code` of an in-band error.
   * @param code - The `error_code` of an in-band error (`model_not_found`...).
   */
  constructor(message: string, status?: number, code?: string) {
    super('CartesiaTTS', message, { status, code })
  }
}

/** An in-band `error` message, as the TTS WebSocket sends it (older versions: `error` text). */
export interface TTSErrorMessage {
  type: 'error'
  context_id?: string
  status_code?: number
  title?: string
  message?: string
  error?: string
  error_code?: string
}

/** `CartesiaTTS: 400 model_not_found: The model is not valid...` */
export function inBandError(event: TTSErrorMessage): CartesiaTTSError {
  const status = typeof event.status_code === 'number' ? event.status_code : undefined
  const code = typeof event.error_code === 'string' ? event.error_code : undefined
  const text = event.message ?? event.error ?? event.title ?? 'unknown error'
  const parts = [status, code].filter((part) => part !== undefined).join(' ')
  return new CartesiaTTSError(`${parts ? `${parts}: ` : ''}${text}`, status, code)
}
