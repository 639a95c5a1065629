import { describe, expect, it } from 'vitest'
import { Pcm16Chunker } from './chunker.js'
import { concatPcm16 } from './pcm.js'

describe('Pcm16Chunker', () => {
  it('cuts any frame sizes into fixed chunks, then flushes the rest, losing nothing', () => {
    const chunker = new Pcm16Chunker(1600)
    const input = new Int16Array(5000).map((_, i) => i % 30000)
    const chunks: Int16Array[] = []
    for (let offset = 0; offset < input.length;) {
      const size = [320, 128, 777, 2000][chunks.length % 4]!
      chunks.push(...chunker.push(input.subarray(offset, offset + size)))
      offset += size
    }
    expect(chunks.map((chunk) => chunk.length)).toEqual([1600, 1600, 1600])
    const rest = chunker.flush()!
    expect(rest.length).toBe(200)
    expect(Array.from(concatPcm16([...chunks, rest]))).toEqual(Array.from(input))
    expect(chunker.flush()).toBeUndefined()
  })

  it('returns chunks that later pushes do not overwrite', () => {
    const chunker = new Pcm16Chunker(2)
    const [first] = chunker.push(new Int16Array([1, 2]))
    chunker.push(new Int16Array([3, 4]))
    expect(Array.from(first!)).toEqual([1, 2])
  })

  it('forgets buffered samples on reset', () => {
    const chunker = new Pcm16Chunker(4)
    chunker.push(new Int16Array([1, 2, 3]))
    chunker.reset()
    expect(chunker.push(new Int16Array([5, 6, 7, 8])).map((c) => Array.from(c))).toEqual([
      [5, 6, 7, 8],
    ])
  })
})
