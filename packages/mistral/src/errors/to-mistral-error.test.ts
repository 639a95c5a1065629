import { MistralError } from '@mistralai/mistralai/models/errors'
import { describe, expect, it } from 'vitest'
import {
  errorRetryAfterMs,
  errorStatus,
  isRetryableError,
  MAX_RETRY_AFTER_MS,
} from '@openmic/core/provider'
import { toMistralError } from './to-mistral-error.js'

function httpError(status: number, headers: Record<string, string> = {}) {
  const response = new Response('{"message":"nope"}', { status, headers })
  const request = new Request('http://127.0.0.1/v1/chat/completions')
  return new MistralError('API error', { response, request, body: '{"message":"nope"}' })
}

describe('toMistralError', () => {
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
      const error = toMistralError(original)
      expect(error).toBe(original)
      expect(errorStatus(error)).toBe(status)
      expect((error as { status: number }).status).toBe(status)
      expect(isRetryableError(error)).toBe(retryable)
    }
  })

  it('passes other errors unchanged (connection errors stay retryable for core)', () => {
    const error = new TypeError('fetch failed')
    expect(toMistralError(error)).toBe(error)
    expect(isRetryableError(error)).toBe(true)
  })
})

describe("core's retry-after on a Mistral error", () => {
  it('reads retry-after-ms, retry-after seconds and dates from the SDK error, capped', () => {
    const wait = (headers: Record<string, string>) =>
      errorRetryAfterMs(toMistralError(httpError(429, headers)))
    expect(wait({ 'retry-after-ms': '150' })).toBe(150)
    expect(wait({ 'retry-after': '1' })).toBe(1000)
    expect(wait({ 'retry-after': '600' })).toBe(MAX_RETRY_AFTER_MS)
    expect(wait({ 'retry-after': new Date(Date.now() + 60_000).toUTCString() })).toBe(
      MAX_RETRY_AFTER_MS
    )
    expect(wait({})).toBe(0)
  })
})
