import { ProviderError } from '@openmic/core'

/** Which class an error comes from: its message starts with this name. */
export type GradiumProvider = 'GradiumSTT' | 'GradiumTTS'

/**
 * An error of GradiumSTT or GradiumTTS, emitted with `Failed`. Its message names the class and,
 * when there is one, the HTTP status of a refused connection or the code of Gradium's in-band
 * `error` message: `GradiumTTS: HTTP 401 invalid api key`, `GradiumSTT: error 1008 ...`.
 */
export class GradiumError extends ProviderError {
  override readonly name = 'GradiumError'
  /** The class that failed. */
  declare readonly provider: GradiumProvider

  constructor(
    provider: GradiumProvider,
    message: string,
    details: {
      /** The HTTP status of a refused WebSocket upgrade (401 for a wrong key...). */
      status?: number
      /** The `code` of an in-band `error` message (1008 policy violation, 1011 server error...). */
      code?: number
    } = {}
  ) {
    super(provider, message, {
      status: details.status,
      code: details.code === undefined ? undefined : String(details.code),
    })
  }
}
