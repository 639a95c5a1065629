import { MistralError } from '@mistralai/mistralai/models/errors'

/** A Mistral HTTP error as MistralAgent fails with it: the SDK's error, plus `status`. */
export type MistralHttpError = MistralError & {
  /** The HTTP status, as other providers' errors name it (the SDK's `statusCode`). */
  status: number
}

/**
 * The error a failed model call fails with. Core's retry classifies it (by `statusCode`, and the
 * `retry-after` of its `headers`); this only adds `status`, which every openmic provider's HTTP
 * errors carry. Other errors pass unchanged.
 */
export function toMistralError(error: unknown): unknown {
  if (!(error instanceof MistralError)) return error
  return Object.assign(error, { status: error.statusCode }) as MistralHttpError
}
