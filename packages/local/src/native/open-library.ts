import { existsSync } from 'node:fs'
import koffi from 'koffi'
import { LocalSetupError } from '../errors.js'

/** A library opened by koffi. */
export type NativeLibrary = ReturnType<typeof koffi.load>

/** Opens a shared library, or throws a {@link LocalSetupError} naming the packages to install. */
export function openLibrary(name: string, packages: readonly string[]): NativeLibrary {
  try {
    return koffi.load(name)
  } catch (error) {
    throw new LocalSetupError(`the shared library ${name}`, { packages, cause: error })
  }
}

/** Throws a {@link LocalSetupError} when one of the files is missing. */
export function requireFiles(paths: readonly string[], packages: readonly string[]): void {
  const missing = paths.find((path) => !existsSync(path))
  if (missing !== undefined) throw new LocalSetupError(missing, { packages })
}
