import { describe, expect, it } from 'vitest'
import { errorBodyMessage } from './error-body-message.js'

describe('errorBodyMessage', () => {
  it('reads message, detail or error.message', () => {
    expect(errorBodyMessage('{"message":"invalid api key"}')).toBe('invalid api key')
    expect(errorBodyMessage('{"detail":"Unauthorized"}')).toBe('Unauthorized')
    expect(errorBodyMessage('{"error":{"message":"quota exceeded"}}')).toBe('quota exceeded')
    expect(errorBodyMessage('{"detail":{"status":"x"}}')).toBe('{"status":"x"}')
  })

  it('falls back on the text, and is empty for an empty body', () => {
    expect(errorBodyMessage('  Bad Gateway \n')).toBe('Bad Gateway')
    expect(errorBodyMessage('x'.repeat(500))).toHaveLength(200)
    expect(errorBodyMessage('')).toBe('')
  })
})
