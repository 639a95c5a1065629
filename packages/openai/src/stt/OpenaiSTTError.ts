/**
 * Why an {@link OpenaiSTT} utterance failed: the HTTP status of a refused connection (`status`),
 * or the API's error `code` and `type` of an in-band error, or the close code of a connection
 * that ended (`closeCode`). The message always starts with `OpenaiSTT:`.
 */
export class OpenaiSTTError extends Error {
  override readonly name = 'OpenaiSTTError'
  /** HTTP status of a refused WebSocket upgrade (401 for a wrong key...). */
  readonly status: number | undefined
  /** The API's error code, e.g. `invalid_api_key` or `input_audio_buffer_commit_empty`. */
  readonly code: string | undefined
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
    super(
      `OpenaiSTT: ${message}`,
      details.cause === undefined ? undefined : { cause: details.cause }
    )
    this.status = details.status
    this.code = details.code ?? undefined
    this.type = details.type ?? undefined
    this.closeCode = details.closeCode
  }
}
