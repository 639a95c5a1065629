/**
 * A system package that `@openmic/local` needs is missing: a shared library or the speech model.
 * The message names the exact command that installs it; `installCommand` holds that command alone.
 *
 * @example
 * try {
 *   stt = new LocalSTT()
 * } catch (error) {
 *   if (error instanceof LocalSetupError) console.error(error.installCommand)
 * }
 */
export class LocalSetupError extends Error {
  override readonly name = 'LocalSetupError'
  /** Always `missing_system_package`. */
  readonly code = 'missing_system_package'
  /** Run as root (or with sudo) to fix it, e.g. `apt-get install -y libflite1`. */
  readonly installCommand: string

  /**
   * @param what - What was not found (a library name or a model path).
   * @param packages - The Debian packages that provide it.
   * @param cause - The underlying error, if any.
   */
  constructor(
    what: string,
    readonly packages: readonly string[],
    cause?: unknown
  ) {
    const installCommand = `apt-get install -y ${packages.join(' ')}`
    super(
      `@openmic/local: ${what} was not found. Install it (as root) with:\n  ${installCommand}`,
      cause === undefined ? undefined : { cause }
    )
    this.installCommand = installCommand
  }
}
