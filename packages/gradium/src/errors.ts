import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/** Which class an error comes from: its message starts with this name. */
export type GradiumProvider = 'GradiumSTT' | 'GradiumTTS'

/** What a {@link GradiumError} carries: core's details, and which class failed. */
export interface GradiumErrorDetails extends ProviderErrorDetails {
  provider: GradiumProvider
}

/**
 * An error of GradiumSTT or GradiumTTS, emitted with `Failed`. Its message names the class and,
 * when there is one, the HTTP status of a refused connection (`status`: 401 for a wrong key...) or
 * the code of Gradium's in-band `error` message (`code`, its digits: 1008 policy violation, 1011
 * server error...): `GradiumTTS: HTTP 401 invalid api key`, `GradiumSTT: error 1008 ...`.
 */
export class GradiumError extends ProviderError {
  override readonly name = 'GradiumError'
  /** The class that failed. */
  declare readonly provider: GradiumProvider

  constructor(message: string, details: GradiumErrorDetails) {
    super(details.provider, message, details)
  }
}
