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

  it('turns an error sent inside the stream into a non-retried OpenaiStreamError', () => {
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
      message: 'quota',
      retryable: false,
      cause: inStream,
    })
  })
})
