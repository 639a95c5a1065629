import { describe, expect, it } from 'vitest'
import {
  errorRetryAfterMs,
  FirstTokenTimeoutError,
  isRetryableError,
  MAX_RETRY_AFTER_MS,
  retryAfterFromHeaders,
} from './errors.js'

const httpError = (status: number, headers?: Record<string, string>) =>
  Object.assign(new Error(`HTTP ${status}`), {
    status,
    ...(headers ? { headers: new Headers(headers) } : {}),
  })

describe('isRetryableError: the one classification behind every provider', () => {
  it('retries timeouts, conflicts, rate limits and server errors', () => {
    for (const status of [408, 409, 429, 500, 502, 503, 529]) {
      expect(isRetryableError(httpError(status)), `status ${status}`).toBe(true)
    }
  })

  it('never retries a request the server refused for what it is (400, 401, 403, 404, 422)', () => {
    for (const status of [400, 401, 403, 404, 422]) {
      expect(isRetryableError(httpError(status)), `status ${status}`).toBe(false)
    }
  })

  it('reads the status from `statusCode` too (the Mistral SDK names it so)', () => {
    expect(isRetryableError(Object.assign(new Error('x'), { statusCode: 401 }))).toBe(false)
    expect(isRetryableError(Object.assign(new Error('x'), { statusCode: 503 }))).toBe(true)
  })

  it('retries what has no status (refused connection, reset, broken stream) and timeouts', () => {
    expect(isRetryableError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(
      true
    )
    expect(isRetryableError(new FirstTokenTimeoutError(100))).toBe(true)
  })

  it('lets an error decide with its own `retryable` flag', () => {
    expect(isRetryableError(Object.assign(httpError(503), { retryable: false }))).toBe(false)
    expect(isRetryableError(Object.assign(httpError(400), { retryable: true }))).toBe(true)
  })
})

describe('errorRetryAfterMs', () => {
  it('reads retry-after (seconds), retry-after-ms and an HTTP date from the response headers', () => {
    expect(errorRetryAfterMs(httpError(429, { 'retry-after': '2' }))).toBe(2000)
    expect(errorRetryAfterMs(httpError(429, { 'retry-after-ms': '750' }))).toBe(750)
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(retryAfterFromHeaders({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(
      3000
    )
  })

  it(`caps what a provider asks at ${MAX_RETRY_AFTER_MS} ms: a voice user is waiting`, () => {
    expect(errorRetryAfterMs(httpError(429, { 'retry-after': '120' }))).toBe(MAX_RETRY_AFTER_MS)
    expect(errorRetryAfterMs({ retryAfterMs: 60_000 })).toBe(MAX_RETRY_AFTER_MS)
  })

  it('prefers a retryAfterMs the provider set, and ignores nonsense', () => {
    expect(errorRetryAfterMs({ retryAfterMs: 1500, headers: { 'retry-after': '3' } })).toBe(1500)
    for (const error of [
      { retryAfterMs: -1 },
      { retryAfterMs: '2' },
      httpError(429, { 'retry-after': 'soon' }),
      httpError(429, { 'retry-after': '-4' }),
      {},
      null,
      'boom',
    ]) {
      expect(errorRetryAfterMs(error)).toBe(0)
    }
  })
})
