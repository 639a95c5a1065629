import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/** What an OpenAI error carries besides core's details: the API's error `type`. */
export interface OpenaiErrorDetails extends ProviderErrorDetails {
  /** The API's error type, e.g. `invalid_request_error`. */
  type?: string
}

/**
 * Why an {@link OpenaiSTT} utterance failed: the HTTP status of a refused connection (`status`),
 * or the API's error `code` and `type` of an in-band error, or the close code of a connection
 * that ended (`closeCode`). The message always starts with `OpenaiSTT:`.
 */
export class OpenaiSTTError extends ProviderError {
  override readonly name = 'OpenaiSTTError'
  /** The API's error type, e.g. `invalid_request_error`. */
  readonly type: string | undefined

  constructor(message: string, details: OpenaiErrorDetails = {}) {
    super('OpenaiSTT', message, details)
    this.type = details.type
  }
}
