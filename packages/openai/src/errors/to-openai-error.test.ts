import { isRetryableError } from '@openmic/core/provider'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { OpenaiStreamError } from './OpenaiStreamError.js'
import { toOpenaiError } from './to-openai-error.js'

describe('toOpenaiError', () => {
  it('keeps HTTP, connection and other errors as they are', () => {
    const http = OpenAI.APIError.generate(
      429,
      { error: { message: 'slow' } },
      undefined,
      new Headers()
    )
    const connection = new OpenAI.APIConnectionError({ message: 'down' })
    const other = new TypeError('terminated')
    for (const error of [http, connection, other]) expect(toOpenaiError(error)).toBe(error)
  })

  it('turns an error sent inside the stream into an OpenaiStreamError with its code', () => {
    const inStream = new OpenAI.APIError(
      undefined,
      { code: 'insufficient_quota', message: 'quota' },
      undefined,
      undefined
    )
    const error = toOpenaiError(inStream)
    expect(error).toBeInstanceOf(OpenaiStreamError)
    expect(error).toMatchObject({
      code: 'insufficient_quota',
      message: 'OpenaiAgent: quota',
      retryable: false,
      cause: inStream,
    })
  })

  it("lets openmic retry in-stream errors that are the server's fault only", () => {
    const inStream = (code: string) =>
      toOpenaiError(new OpenAI.APIError(undefined, { code, message: code }, undefined, undefined))
    for (const code of ['server_error', 'rate_limit_exceeded', 'overloaded']) {
      expect(isRetryableError(inStream(code))).toBe(true)
    }
    for (const code of ['insufficient_quota', 'invalid_prompt', 'content_filter']) {
      expect(isRetryableError(inStream(code))).toBe(false)
    }
  })
})
