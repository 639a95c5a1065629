/** An error of CartesiaSTT: names the provider and the status or code Cartesia gave. */
export class CartesiaSTTError extends Error {
  override readonly name = 'CartesiaSTTError'
  constructor(
    message: string,
    /** The HTTP status of a refused connection, or the `status_code` of an in-band error. */
    readonly status?: number,
    /** The `error_code` of an in-band error. */
    readonly code?: string
  ) {
    super(`CartesiaSTT: ${message}`)
  }
}
