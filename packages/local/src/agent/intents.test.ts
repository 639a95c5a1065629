import { describe, expect, it } from 'vitest'
import { detectIntent } from './intents.js'

describe('detectIntent', () => {
  it.each([
    ['What time is it?', 'time'],
    ['what time is a', 'time'],
    ['Do you know the hour', 'time'],
    ['Goodbye.', 'goodbye'],
    ['good bye', 'goodbye'],
    ['ok bye then', 'goodbye'],
    ['thank you very much', 'thanks'],
    ['Hello there', 'hello'],
    ['please tell me a story about a dog', 'other'],
    ['this is history', 'other'],
  ])('%s → %s', (message, intent) => {
    expect(detectIntent(message)).toBe(intent)
  })
})
