import { describe, expect, it } from 'vitest'
import { isRetryableError } from './errors.js'
import { ProviderError } from './ProviderError.js'

describe('ProviderError', () => {
  it('names the provider in its message and carries status, code and cause', () => {
    const cause = new Error('socket hang up')
    const error = new ProviderError('AcmeSTT', '401 Invalid API key', {
      status: 401,
      code: 'invalid_api_key',
      cause,
    })
    expect(error.message).toBe('AcmeSTT: 401 Invalid API key')
    expect(error).toMatchObject({ provider: 'AcmeSTT', status: 401, code: 'invalid_api_key' })
    expect(error.cause).toBe(cause)
  })

  it('is retryable as core decides from its status, unless it says otherwise', () => {
    expect(new ProviderError('Acme', 'refused', { status: 401 }).retryable).toBe(false)
    expect(new ProviderError('Acme', 'busy', { status: 429 }).retryable).toBe(true)
    expect(new ProviderError('Acme', 'reset').retryable).toBe(true)
    const final = new ProviderError('Acme', 'bad audio', { status: 500, retryable: false })
    expect(isRetryableError(final)).toBe(false)
  })
})
