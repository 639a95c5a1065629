import { APIConnectionError, APIError } from 'openai'
import { OpenaiStreamError, textField } from './OpenaiStreamError.js'

/**
 * What a failed model call throws. HTTP errors stay the SDK's own (`status`, `headers`, `code`),
 * connection and parse errors stay as they are; an error the API sent inside the stream (the SDK
 * throws it as an `APIError` without a status) becomes an {@link OpenaiStreamError} with its code.
 */
export function toOpenaiError(error: unknown): unknown {
  if (!(error instanceof APIError)) return error
  if (error.status !== undefined || error instanceof APIConnectionError) return error
  const details = (error.error ?? {}) as { message?: unknown }
  const message = typeof details.message === 'string' ? details.message : error.message
  return new OpenaiStreamError(message, {
    code: textField(error.code),
    type: textField(error.type),
    cause: error,
  })
}
