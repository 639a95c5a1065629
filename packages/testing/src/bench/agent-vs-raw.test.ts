import { describe, expect, it } from 'vitest'
import { formatAgentVsRaw, quantile, type BenchRound } from './agent-vs-raw.js'

describe('formatAgentVsRaw', () => {
  it('reports medians, p99, the median difference, the ratio and the split by order', () => {
    const rounds: BenchRound[] = [1, 2, 3, 4].map((i) => ({
      raw: { first: 1, end: 10 },
      agent: { first: 1 + i / 10, end: 10 + i },
      rawFirst: i % 2 === 0,
    }))
    const lines = formatAgentVsRaw('Title', rounds).split('\n')
    expect(lines[0]).toBe('Title')
    expect(lines[2]!.split(/\s{2,}/)).toEqual([
      'first chunk',
      '1.000 ms',
      '1.000 ms',
      '1.300 ms',
      '1.400 ms',
      '0.300 ms',
      '1.300',
    ])
    expect(lines[3]).toContain('3.000 ms') // the stream end's median difference
    expect(lines[4]).toBe(
      'med. diff by order (first chunk / stream end): raw first 0.400 / 4.000 ms, agent first 0.300 / 3.000 ms'
    )
  })

  it('takes quantiles by rank', () => {
    expect(quantile([5, 1, 3], 0.5)).toBe(3)
    expect(quantile([5, 1, 3], 0.99)).toBe(5)
  })
})
