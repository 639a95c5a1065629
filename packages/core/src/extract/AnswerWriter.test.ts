import { PassThrough } from 'node:stream'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AnswerWriter } from './AnswerWriter.js'

function collect() {
  const stream = new PassThrough()
  const written: string[] = []
  stream.on('data', (chunk) => written.push(chunk.toString()))
  return { stream, written }
}

/** Splits `text` at the given cut points (deduplicated, sorted). */
function chunk(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b)
  const chunks: string[] = []
  let previous = 0
  for (const point of [...points, text.length]) {
    chunks.push(text.slice(previous, point))
    previous = point
  }
  return chunks
}

describe('AnswerWriter', () => {
  it('writes deltas as they come when there is no tag', async () => {
    const { stream, written } = collect()
    const writer = new AnswerWriter(stream)
    writer.write('Hello')
    await new Promise(setImmediate)
    writer.write(', world')
    await new Promise(setImmediate)
    expect(written).toEqual(['Hello', ', world'])
    expect(writer.end()).toBe('Hello, world')
  })

  it('holds back a split start tag: "Sure. {" + "\\"a\\":1}" writes only "Sure. "', async () => {
    const { stream, written } = collect()
    const writer = new AnswerWriter(stream, '{')
    writer.write('Sure. {')
    writer.write('"a":1}')
    expect(writer.end()).toBe('Sure. {"a":1}')
    await new Promise(setImmediate)
    expect(written.join('')).toBe('Sure. ')
  })

  it('holds back a possible tag start until the next delta tells', async () => {
    const { stream, written } = collect()
    const writer = new AnswerWriter(stream, '<score>')
    writer.write('Result <sc')
    await new Promise(setImmediate)
    expect(written.join('')).toBe('Result ')
    writer.write('ary> story')
    await new Promise(setImmediate)
    expect(written.join('')).toBe('Result <scary> story')
  })

  it('flushes a held-back tail that never became a tag at the end', async () => {
    const { stream, written } = collect()
    const writer = new AnswerWriter(stream, '<score>')
    writer.write('I am <')
    expect(writer.end()).toBe('I am <')
    await new Promise(setImmediate)
    expect(written.join('')).toBe('I am <')
  })

  it('writes the first text at once, then deltas that arrive together as one chunk', async () => {
    const { stream, written } = collect()
    const writer = new AnswerWriter(stream)
    for (const word of ['One ', 'two ', 'three.']) writer.write(word)
    await new Promise(setImmediate)
    expect(written).toEqual(['One ', 'two three.'])
    writer.write(' Four.')
    await new Promise(setImmediate)
    expect(written).toEqual(['One ', 'two three.', ' Four.'])
  })

  it('reports what was written, for an answer that broke off', () => {
    const writer = new AnswerWriter(new PassThrough(), '<t>')
    writer.write('Part one <')
    expect(writer.written).toBe('Part one '.length)
    expect(writer.writtenText()).toBe('Part one ')
  })

  it('never leaks any part of the tag, whatever the chunking (property)', () => {
    const tags = fc.constantFrom('{', '<score>', '[[data]]', '<<')
    const safeText = fc
      .string({ maxLength: 40 })
      .filter((text) => !text.includes('<') && !text.includes('{') && !text.includes('['))
    fc.assert(
      fc.property(
        tags,
        safeText,
        fc.string({ maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (tag, spoken, value, cuts) => {
          const answer = `${spoken}${tag}${value}`
          const stream = new PassThrough()
          const writer = new AnswerWriter(stream, tag)
          for (const piece of chunk(answer, cuts)) writer.write(piece)
          const full = writer.end()
          const written = stream.read()?.toString() ?? ''
          expect(full).toBe(answer)
          expect(written).toBe(spoken.slice(0, answer.indexOf(tag)))
        }
      ),
      { numRuns: 500 }
    )
  })

  it('writes the whole text when the tag never comes, whatever the chunking (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (text, cuts) => {
          fc.pre(!text.includes('<tag>'))
          const stream = new PassThrough()
          const writer = new AnswerWriter(stream, '<tag>')
          for (const piece of chunk(text, cuts)) writer.write(piece)
          writer.end()
          expect(stream.read()?.toString() ?? '').toBe(text)
        }
      ),
      { numRuns: 500 }
    )
  })

  it('without a tag, writes every delta once and in order, in bursts of any length (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 150, size: 'max' }),
        fc.array(fc.nat({ max: 150 }), { maxLength: 8 }),
        (deltas, flushPoints) => {
          const stream = new PassThrough()
          const writer = new AnswerWriter(stream)
          deltas.forEach((delta, index) => {
            writer.write(delta)
            // Where the next tick's flush would run: between two network reads.
            if (flushPoints.includes(index)) writer.flush()
          })
          expect(writer.received).toBe(deltas.join(''))
          expect(writer.end()).toBe(deltas.join(''))
          expect(stream.read()?.toString() ?? '').toBe(deltas.join(''))
        }
      ),
      { numRuns: 300 }
    )
  })
})
