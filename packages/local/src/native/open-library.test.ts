import { describe, expect, it } from 'vitest'
import { LocalSetupError } from '../errors.js'
import { openLibrary, requireFiles } from './open-library.js'

describe('openLibrary', () => {
  it('opens an installed library', () => {
    expect(openLibrary('libc.so.6', ['libc6']).func('int abs(int)')(-3)).toBe(3)
  })

  it('throws a LocalSetupError with the install command and the loader error as cause', () => {
    let error: unknown
    try {
      openLibrary('libopenmic-missing.so.9', ['libfoo1', 'foo-data'])
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(LocalSetupError)
    expect(error).toMatchObject({
      installCommand: 'apt-get install -y libfoo1 foo-data',
      message: expect.stringContaining('the shared library libopenmic-missing.so.9 was not found'),
      cause: expect.any(Error),
    })
  })
})

describe('requireFiles', () => {
  it('names the first missing file', () => {
    expect(() => requireFiles(['/etc/hostname', '/nope/model.bin'], ['model-pkg'])).toThrow(
      '/nope/model.bin was not found. Install it (as root) with:\n  apt-get install -y model-pkg'
    )
  })
})
