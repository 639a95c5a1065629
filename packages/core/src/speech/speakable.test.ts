import { describe, expect, it } from 'vitest'
import { speakable } from './speakable.js'

describe('speakable', () => {
  it.each([
    ['**Bold** and *italic* and `code`.', 'Bold and italic and code.'],
    ['## A heading', 'A heading'],
    ['- a bullet', 'a bullet'],
    ['See [the docs](https://example.com/a_b).', 'See the docs.'],
    ['_emphasis_ but snake_case stays', 'emphasis but snake_case stays'],
    ['It is 10:42 PM, 3 - 1 = 2.', 'It is 10:42 PM, 3 - 1 = 2.'],
  ])('%s → %s', (input, output) => {
    expect(speakable(input)).toBe(output)
  })
})
