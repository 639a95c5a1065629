import { MicdropCloseCodes } from '@openmic/core/protocol'

/** Close codes an application can end a call with (the WebSocket close code sent to the client). */
export const MicdropErrorCode = {
  /** Missing or invalid parameters. */
  BadRequest: MicdropCloseCodes.BadRequest,
  /** Authentication failed. */
  Unauthorized: MicdropCloseCodes.Unauthorized,
  /** The requested resource (a conversation to resume, ...) does not exist. */
  NotFound: MicdropCloseCodes.NotFound,
} as const
export type MicdropErrorCode = (typeof MicdropErrorCode)[keyof typeof MicdropErrorCode]

/**
 * An error that ends a call with a given close code. Throw it (or let `waitForParams` throw it)
 * and pass it to {@link handleError}.
 *
 * @example
 * throw new MicdropError(MicdropErrorCode.Unauthorized, 'Invalid token')
 */
export class MicdropError extends Error {
  constructor(
    public readonly code: MicdropErrorCode | number,
    message: string
  ) {
    super(message)
    this.name = 'MicdropError'
  }
}
