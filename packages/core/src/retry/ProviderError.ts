import { isRetryableStatus } from './errors.js'

/**
 * What a {@link ProviderError} carries besides its message: the one options object every
 * provider's error class takes (`new AcmeSTTError(message, { status, code, cause })`).
 */
export interface ProviderErrorDetails {
  /** HTTP status of a refused request or WebSocket upgrade, or one the provider reported in-band. */
  status?: number
  /**
   * The provider's own error code, as text (`invalid_api_key`, `quota_exceeded`, `1008`...): a
   * numeric code is given as its digits.
   */
  code?: string
  /**
   * The WebSocket close code of a connection that ended the work (`1011`), or the one a provider's
   * in-band error announced.
   */
  closeCode?: number
  /** Headers of the HTTP error response, where core's retry reads `retry-after`. */
  headers?: Headers | Record<string, string>
  /**
   * Whether the same request may succeed if tried again. Default: from `status` (none, 408, 409,
   * 429 or 5xx: yes; any other status: no), as core's `isRetryableError` decides.
   */
  retryable?: boolean
  /** The error it comes from (the SDK's, the socket's). */
  cause?: unknown
}

/**
 * The one shape of a speech or model provider's error: the message starts with the provider's
 * name (`CartesiaSTT: 401 Invalid API key`), and `provider`, `status`, `code` (always a string),
 * `closeCode`, `headers`, `retryable` and `cause` say the rest. Each provider's error class is a subclass
 * taking `(message, details)`, so `error instanceof ProviderError` holds for all of them.
 *
 * @example
 * export class AcmeSTTError extends ProviderError {
 *   override readonly name = 'AcmeSTTError'
 *   constructor(message: string, details?: ProviderErrorDetails) {
 *     super('AcmeSTT', message, details)
 *   }
 * }
 */
export class ProviderError extends Error {
  override readonly name: string = 'ProviderError'
  /** Which provider failed, e.g. `CartesiaSTT`. */
  readonly provider: string
  readonly status: number | undefined
  readonly code: string | undefined
  readonly closeCode: number | undefined
  readonly headers: Headers | Record<string, string> | undefined
  readonly retryable: boolean

  constructor(provider: string, message: string, details: ProviderErrorDetails = {}) {
    super(
      `${provider}: ${message}`,
      details.cause === undefined ? undefined : { cause: details.cause }
    )
    this.provider = provider
    this.status = details.status
    this.code = details.code
    this.closeCode = details.closeCode
    this.headers = details.headers
    this.retryable = details.retryable ?? isRetryableStatus(details.status)
  }
}
