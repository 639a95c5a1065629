import { describe, expect, it } from 'vitest'
import { errorRetryAfterMs, isRetryableError, isRetryableStreamCode } from './errors.js'
import { ProviderError } from './ProviderError.js'

describe('ProviderError', () => {
  it('names the provider in its message and carries status, code and cause', () => {
    const cause = new Error('socket hang up')
    const error = new ProviderError('AcmeSTT', '401 Invalid API key', {
      status: 401,
      code: 'invalid_api_key',
      closeCode: 1008,
      cause,
    })
    expect(error.message).toBe('AcmeSTT: 401 Invalid API key')
    expect(error).toMatchObject({
      provider: 'AcmeSTT',
      status: 401,
      code: 'invalid_api_key',
      closeCode: 1008,
    })
    expect(error.cause).toBe(cause)
  })

  it('is retryable as core decides from its status, unless it says otherwise', () => {
    expect(new ProviderError('Acme', 'refused', { status: 401 }).retryable).toBe(false)
    expect(new ProviderError('Acme', 'busy', { status: 429 }).retryable).toBe(true)
    expect(new ProviderError('Acme', 'reset').retryable).toBe(true)
    const final = new ProviderError('Acme', 'bad audio', { status: 500, retryable: false })
    expect(isRetryableError(final)).toBe(false)
  })

  it("lets core's retry read the response's retry-after", () => {
    const busy = new ProviderError('Acme', 'busy', { status: 429, headers: { 'retry-after': '2' } })
    expect(errorRetryAfterMs(busy)).toBe(2000)
  })

  it("retries a stream's in-band code only when the fault is the server's", () => {
    for (const code of ['server_error', 'rate_limit_exceeded', 'overloaded'])
      expect(isRetryableStreamCode(code)).toBe(true)
    for (const code of ['insufficient_quota', 'invalid_prompt', undefined])
      expect(isRetryableStreamCode(code)).toBe(false)
  })
})
