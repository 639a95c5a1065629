import { ProviderError } from '@openmic/core'
import type { RealtimeErrorDetails } from '../stt/RealtimeSocket.js'

/**
 * Why an {@link OpenaiRealtime} session, response or commit failed: the HTTP status of a refused
 * connection (`status`), the API's error `code` and `type` of an in-band error or a failed
 * response, or the close code of a connection that ended (`closeCode`). The message always
 * starts with `OpenaiRealtime:`.
 */
export class OpenaiRealtimeError extends ProviderError {
  override readonly name = 'OpenaiRealtimeError'
  /** The API's error type, e.g. `invalid_request_error`. */
  readonly type: string | undefined
  /** Close code of the connection, when it ended the session. */
  readonly closeCode: number | undefined

  constructor(message: string, details: RealtimeErrorDetails & { retryable?: boolean } = {}) {
    super('OpenaiRealtime', message, {
      status: details.status,
      code: details.code ?? undefined,
      cause: details.cause,
      retryable: details.retryable,
    })
    this.type = details.type ?? undefined
    this.closeCode = details.closeCode
  }
}
