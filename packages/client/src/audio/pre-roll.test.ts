import { describe, expect, it } from 'vitest'
import { PreRoll } from './pre-roll.js'

describe('PreRoll', () => {
  it('keeps the most recent audio, at least the asked length, in order', () => {
    const preRoll = new PreRoll(5)
    for (let i = 0; i < 6; i++) preRoll.push(new Int16Array([i * 2, i * 2 + 1]))
    // 5 samples asked, kept in whole frames: the last three frames
    expect(Array.from(preRoll.read())).toEqual([6, 7, 8, 9, 10, 11])
    expect(preRoll.size).toBe(6)
  })

  it('is empty after clear', () => {
    const preRoll = new PreRoll(10)
    preRoll.push(new Int16Array([1]))
    preRoll.clear()
    expect(preRoll.read().length).toBe(0)
  })
})
