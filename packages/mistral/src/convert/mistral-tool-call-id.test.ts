import { describe, expect, it } from 'vitest'
import { toMistralToolCallId } from './mistral-tool-call-id.js'

describe('toMistralToolCallId', () => {
  it('keeps ids Mistral accepts', () => {
    expect(toMistralToolCallId('gSIMJiOkT')).toBe('gSIMJiOkT')
  })

  it('turns other ids into 9 letters or digits, stable and distinct', () => {
    const a = toMistralToolCallId('call_2FQdm3Br7Qb35YUBSkDR7kue')
    const b = toMistralToolCallId('call_2FQdm3Br7Qb35YUBSkDR7kuf')
    expect(a).toMatch(/^[a-zA-Z0-9]{9}$/)
    expect(b).toMatch(/^[a-zA-Z0-9]{9}$/)
    expect(toMistralToolCallId('call_2FQdm3Br7Qb35YUBSkDR7kue')).toBe(a)
    expect(a).not.toBe(b)
  })
})
