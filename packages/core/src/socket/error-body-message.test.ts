import { describe, expect, it } from 'vitest'
import { errorBodyMessage } from './error-body-message.js'

describe('errorBodyMessage', () => {
  it('reads message, detail or error.message', () => {
    expect(errorBodyMessage('{"message":"invalid api key"}')).toBe('invalid api key')
    expect(errorBodyMessage('{"detail":"Unauthorized"}')).toBe('Unauthorized')
    expect(errorBodyMessage('{"error":{"message":"quota exceeded"}}')).toBe('quota exceeded')
    expect(errorBodyMessage('{"detail":{"status":"x"}}')).toBe('{"status":"x"}')
  })

  it("reads Cartesia's error and title, ElevenLabs' status and message, at any depth", () => {
    expect(errorBodyMessage('{"error":"Invalid API key"}')).toBe('Invalid API key')
    expect(errorBodyMessage('{"title":"Not Found"}')).toBe('Not Found')
    expect(
      errorBodyMessage('{"detail":{"status":"invalid_api_key","message":"Invalid API key"}}')
    ).toBe('invalid_api_key: Invalid API key')
    expect(errorBodyMessage('{"error":{"error":{"message":"deep"}}}')).toBe('deep')
  })

  it('reads an in-band error object as well as a body', () => {
    expect(errorBodyMessage({ type: 'error', error: { message: 'Invalid audio format' } })).toBe(
      'Invalid audio format'
    )
    expect(errorBodyMessage({ code: 7 })).toBe('{"code":7}')
    expect(errorBodyMessage(undefined)).toBe('')
  })

  it('falls back on the text, and is empty for an empty body', () => {
    expect(errorBodyMessage('  Bad Gateway \n')).toBe('Bad Gateway')
    expect(errorBodyMessage('x'.repeat(500))).toHaveLength(200)
    expect(errorBodyMessage('')).toBe('')
  })
})
