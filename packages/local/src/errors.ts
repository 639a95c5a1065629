import { ProviderError, type ProviderErrorDetails } from '@openmic/core'

/** What a {@link LocalSetupError} carries: the packages to install, and the loader's error. */
export interface LocalSetupErrorDetails extends ProviderErrorDetails {
  /** The Debian packages that provide what is missing. */
  packages: readonly string[]
}

/**
 * A system package that `@openmic/local` needs is missing: a shared library or the speech model.
 * The message names the exact command that installs it; `installCommand` holds that command alone.
 * Installing is needed first: it is not `retryable`.
 *
 * @example
 * try {
 *   stt = new LocalSTT()
 * } catch (error) {
 *   if (error instanceof LocalSetupError) console.error(error.installCommand)
 * }
 */
export class LocalSetupError extends ProviderError {
  override readonly name = 'LocalSetupError'
  /** Always `missing_system_package`. */
  declare readonly code: 'missing_system_package'
  /** The Debian packages that provide it. */
  readonly packages: readonly string[]
  /** Run as root (or with sudo) to fix it, e.g. `apt-get install -y libflite1`. */
  readonly installCommand: string

  /**
   * @param what - What was not found (a library name or a model path).
   * @param details - The packages that provide it, and the loader's error as `cause`.
   */
  constructor(what: string, details: LocalSetupErrorDetails) {
    const installCommand = `apt-get install -y ${details.packages.join(' ')}`
    super(
      '@openmic/local',
      `${what} was not found. Install it (as root) with:\n  ${installCommand}`,
      { retryable: false, ...details, code: 'missing_system_package' }
    )
    this.packages = details.packages
    this.installCommand = installCommand
  }
}

/**
 * The error a local class fails with: a {@link ProviderError} as it is (a {@link LocalSetupError}
 * of a worker that could not load...), anything else as the class's own error with it as `cause`.
 */
export function localFailure(
  error: unknown,
  create: (message: string, details: ProviderErrorDetails) => ProviderError
): ProviderError {
  if (error instanceof ProviderError) return error
  return create(error instanceof Error ? error.message : String(error), { cause: error })
}
