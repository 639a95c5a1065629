import type { ProviderErrorDetails } from '@openmic/core'

/** An in-band `error` message of Cartesia's WebSockets (older TTS versions: `error` text). */
export interface CartesiaErrorMessage {
  type: 'error'
  context_id?: string
  status_code?: number
  title?: string
  message?: string
  error?: string
  error_code?: string
}

/**
 * The provider's error of an in-band `error` message: `400 model_not_found: The model is not
 * valid.`, with its `status_code` as `status` and its `error_code` as `code`.
 */
export function inBandError<E extends Error>(
  event: CartesiaErrorMessage,
  create: (message: string, details: ProviderErrorDetails) => E
): E {
  const status = typeof event.status_code === 'number' ? event.status_code : undefined
  const code = typeof event.error_code === 'string' ? event.error_code : undefined
  const text = event.message ?? event.error ?? event.title ?? 'unknown error'
  const parts = [status, code].filter((part) => part !== undefined).join(' ')
  return create(`${parts ? `${parts}: ` : ''}${text}`, { status, code })
}
