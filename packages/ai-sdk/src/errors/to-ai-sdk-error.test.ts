import {
  errorRetryAfterMs,
  errorStatus,
  isRetryableError,
  MAX_RETRY_AFTER_MS,
} from '@openmic/core/provider'
import { APICallError } from 'ai'
import { describe, expect, it } from 'vitest'
import { AiSdkStreamError } from './AiSdkStreamError.js'
import { toAiSdkError } from './to-ai-sdk-error.js'

function httpError(statusCode: number, responseHeaders: Record<string, string> = {}) {
  return new APICallError({
    message: 'nope',
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders,
  })
}

describe('toAiSdkError', () => {
  it('keeps the SDK error with its status; retryable for 408, 409, 429 and 5xx only', () => {
    for (const [status, retryable] of [
      [408, true],
      [409, true],
      [429, true],
      [500, true],
      [503, true],
      [400, false],
      [401, false],
      [404, false],
      [422, false],
    ] as const) {
      const original = httpError(status)
      const error = toAiSdkError(original)
      expect(error).toBe(original)
      expect(errorStatus(error)).toBe(status)
      expect((error as { status: number }).status).toBe(status)
      expect(isRetryableError(error)).toBe(retryable)
    }
  })

  it("lets core read the response's retry-after, capped", () => {
    const wait = (headers: Record<string, string>) =>
      errorRetryAfterMs(toAiSdkError(httpError(429, headers)))
    expect(wait({ 'retry-after-ms': '150' })).toBe(150)
    expect(wait({ 'retry-after': '2' })).toBe(2000)
    expect(wait({ 'retry-after': '600' })).toBe(MAX_RETRY_AFTER_MS)
    expect(wait({})).toBe(0)
  })

  it('turns an error object sent inside the stream into an AiSdkStreamError', () => {
    const overloaded = toAiSdkError({ message: 'Try again', code: 'server_error' })
    expect(overloaded).toBeInstanceOf(AiSdkStreamError)
    expect(overloaded).toMatchObject({ message: 'AiSdkAgent: Try again', code: 'server_error' })
    expect(isRetryableError(overloaded)).toBe(true)
    expect(isRetryableError(toAiSdkError({ message: 'No', code: 'invalid_prompt' }))).toBe(false)
    const verdict = toAiSdkError({ message: 'Slow down', statusCode: 429, isRetryable: false })
    expect(verdict).toMatchObject({ status: 429, retryable: false })
    expect(isRetryableError(verdict)).toBe(false)
  })

  it('passes other errors unchanged (connection errors stay retryable for core)', () => {
    const error = new TypeError('fetch failed')
    expect(toAiSdkError(error)).toBe(error)
    expect(isRetryableError(error)).toBe(true)
  })
})
