import { MistralError } from '@mistralai/mistralai/models/errors'
import { errorStatus, isRetryableError } from '@openmic/core/provider'
import { describe, expect, it } from 'vitest'
import { MAX_RETRY_AFTER_MS, retryAfterMs, toAgentError } from './http-error.js'

function httpError(status: number, headers: Record<string, string> = {}) {
  const response = new Response('{"message":"nope"}', { status, headers })
  const request = new Request('http://127.0.0.1/v1/chat/completions')
  return new MistralError('API error', { response, request, body: '{"message":"nope"}' })
}

describe('toAgentError', () => {
  it('keeps the SDK error and its status, retryable for 429 and 5xx only', () => {
    for (const [status, retryable] of [
      [429, true],
      [500, true],
      [503, true],
      [408, true],
      [400, false],
      [401, false],
      [403, false],
      [422, false],
    ] as const) {
      const original = httpError(status)
      const error = toAgentError(original)
      expect(error).toBe(original)
      expect(errorStatus(error)).toBe(status)
      expect((error as { status: number }).status).toBe(status)
      expect(isRetryableError(error)).toBe(retryable)
    }
  })

  it('passes other errors unchanged (connection errors stay retryable for core)', () => {
    const error = new TypeError('fetch failed')
    expect(toAgentError(error)).toBe(error)
    expect(isRetryableError(error)).toBe(true)
  })
})

describe('retryAfterMs', () => {
  it('reads retry-after-ms, retry-after seconds and dates, capped', () => {
    expect(retryAfterMs(httpError(429, { 'retry-after-ms': '150' }))).toBe(150)
    expect(retryAfterMs(httpError(429, { 'retry-after': '1' }))).toBe(1000)
    expect(retryAfterMs(httpError(429, { 'retry-after': '600' }))).toBe(MAX_RETRY_AFTER_MS)
    const date = new Date(Date.now() + 60_000).toUTCString()
    expect(retryAfterMs(httpError(429, { 'retry-after': date }))).toBe(MAX_RETRY_AFTER_MS)
    expect(retryAfterMs(httpError(429))).toBe(0)
    expect(retryAfterMs(new Error('x'))).toBe(0)
  })
})
