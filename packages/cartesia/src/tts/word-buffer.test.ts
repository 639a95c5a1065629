import { describe, expect, it } from 'vitest'
import { WordBuffer } from './word-buffer.js'

describe('WordBuffer', () => {
  it('gives whole words only, and the rest at the end', () => {
    const words = new WordBuffer()
    expect(words.push('Hel')).toBe('')
    expect(words.push('lo the')).toBe('Hello ')
    expect(words.push('re. How')).toBe('there. ')
    expect(words.push('\nare')).toBe('How\n')
    expect(words.end()).toBe('are')
    expect(words.end()).toBe('')
  })
})
