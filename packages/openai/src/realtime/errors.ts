import { ProviderError } from '@openmic/core'
import type { OpenaiErrorDetails } from '../stt/errors.js'

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

  constructor(message: string, details: OpenaiErrorDetails = {}) {
    super('OpenaiRealtime', message, details)
    this.type = details.type
  }
}
