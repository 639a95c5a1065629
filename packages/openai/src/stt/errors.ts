import { ProviderError } from '@openmic/core'

/**
 * Why an {@link OpenaiSTT} utterance failed: the HTTP status of a refused connection (`status`),
 * or the API's error `code` and `type` of an in-band error, or the close code of a connection
 * that ended (`closeCode`). The message always starts with `OpenaiSTT:`.
 */
export class OpenaiSTTError extends ProviderError {
  override readonly name = 'OpenaiSTTError'
  /** The API's error type, e.g. `invalid_request_error`. */
  readonly type: string | undefined
  /** Close code of the connection, when it ended the utterance. */
  readonly closeCode: number | undefined

  constructor(
    message: string,
    details: {
      status?: number
      code?: string | null
      type?: string | null
      closeCode?: number
      cause?: unknown
    } = {}
  ) {
    super('OpenaiSTT', message, {
      status: details.status,
      code: details.code ?? undefined,
      cause: details.cause,
    })
    this.type = details.type ?? undefined
    this.closeCode = details.closeCode
  }
}
