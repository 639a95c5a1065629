import { MicdropCloseCodes } from '@openmic/core/protocol'

/** What went wrong, as the `code` of a {@link MicdropClientError}. */
export const MicdropClientErrorCode = {
  /** The connection failed or dropped, and could not be restored. */
  Connection: 'Connection',
  /** The server refused the call's params (close 4401). */
  Unauthorized: 'Unauthorized',
  /** The server found the params missing or invalid (close 4400). */
  BadRequest: 'BadRequest',
  /** The server has nothing at this URL or for these params (close 4404). */
  NotFound: 'NotFound',
  /** The server failed (close 1011). */
  InternalServer: 'InternalServer',
  /** The microphone could not start, for another reason than the two below. */
  Mic: 'Mic',
  /** The user or the browser refused access to the microphone. */
  MicPermissionDenied: 'MicPermissionDenied',
  /** There is no microphone, or not the one asked for. */
  MicNotFound: 'MicNotFound',
  /** `start()` was called without a `url`. */
  MissingUrl: 'MissingUrl',
} as const
export type MicdropClientErrorCode =
  (typeof MicdropClientErrorCode)[keyof typeof MicdropClientErrorCode]

const DEFAULT_MESSAGES: Record<MicdropClientErrorCode, string> = {
  Connection: 'Could not connect to the server',
  Unauthorized: 'Unauthorized: the server refused the credentials of this call',
  BadRequest: 'Bad request: the server found the call parameters missing or invalid',
  NotFound: 'Not found: the server has no such call',
  InternalServer: 'The server failed (internal error)',
  Mic: 'The microphone could not be started',
  MicPermissionDenied: 'Microphone access was denied: allow it in the browser to talk',
  MicNotFound: 'No microphone was found: plug one in or choose another device',
  MissingUrl: 'No server URL was given to start()',
}

/** An error of the client, with a `code` to branch on and a message to show. */
export class MicdropClientError extends Error {
  override readonly name = 'MicdropClientError'

  constructor(
    readonly code: MicdropClientErrorCode,
    message?: string,
    options?: { cause?: unknown }
  ) {
    super(message || DEFAULT_MESSAGES[code], options)
  }
}

/** Close codes after which reconnecting may help (network loss, server restart, going away). */
const RECOVERABLE_CLOSE_CODES = new Set([1001, 1005, 1006, 1012, 1013, 1014])

/** Whether a socket closed with `code` is worth reconnecting. */
export function isRecoverableClose(code: number): boolean {
  return RECOVERABLE_CLOSE_CODES.has(code)
}

/**
 * The error a close means, or undefined for a normal end (1000). The server's close reason, when
 * there is one, is kept in the message.
 */
export function errorFromClose(code: number, reason = ''): MicdropClientError | undefined {
  const detail = (message: string) => (reason ? `${message} (${reason})` : undefined)
  switch (code) {
    case MicdropCloseCodes.Normal:
      return undefined
    case MicdropCloseCodes.Unauthorized:
      return new MicdropClientError('Unauthorized', detail(DEFAULT_MESSAGES.Unauthorized))
    case MicdropCloseCodes.BadRequest:
      return new MicdropClientError('BadRequest', detail(DEFAULT_MESSAGES.BadRequest))
    case MicdropCloseCodes.NotFound:
      return new MicdropClientError('NotFound', detail(DEFAULT_MESSAGES.NotFound))
    case MicdropCloseCodes.InternalError:
      return new MicdropClientError('InternalServer', detail(DEFAULT_MESSAGES.InternalServer))
    default:
      return new MicdropClientError(
        'Connection',
        `${DEFAULT_MESSAGES.Connection} (close code ${code}${reason ? `: ${reason}` : ''})`
      )
  }
}

/** Maps a `getUserMedia` failure (a DOMException name) to a client error with a clear message. */
export function errorFromMic(error: unknown): MicdropClientError {
  if (error instanceof MicdropClientError) return error
  const name = (error as { name?: string } | undefined)?.name
  const message = (error as { message?: string } | undefined)?.message
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return new MicdropClientError('MicPermissionDenied', undefined, { cause: error })
    case 'NotFoundError':
    case 'OverconstrainedError':
      return new MicdropClientError('MicNotFound', undefined, { cause: error })
    default:
      return new MicdropClientError(
        'Mic',
        message ? `${DEFAULT_MESSAGES.Mic}: ${message}` : undefined,
        { cause: error }
      )
  }
}
