import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import { describe, expect, it } from 'vitest'
import { AnswerStream } from './AnswerStream.js'

async function readAll(stream: AnswerStream): Promise<string> {
  let text = ''
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()))
  await once(stream, 'end')
  return text
}

describe('AnswerStream', () => {
  it('passes strings and buffers through in order, calls write callbacks, ends both sides', async () => {
    const stream = new AnswerStream()
    const text = readAll(stream)
    const callbacks: string[] = []
    expect(stream.write('Héllo', () => callbacks.push('first'))).toBe(true)
    stream.write(Buffer.from(', '), undefined, () => callbacks.push('second'))
    stream.write('d29ybGQ=', 'base64')
    stream.end('!')
    expect(await text).toBe('Héllo, world!')
    await finished(stream) // the writable side finishes too
    expect(callbacks).toEqual(['first', 'second'])
  })

  it('keeps what was written before the reader attached', async () => {
    const stream = new AnswerStream()
    stream.write('early ')
    stream.end('text')
    await new Promise((resolve) => setImmediate(resolve))
    expect(await readAll(stream)).toBe('early text')
  })

  it('drops writes after end or destroy, still calling their callbacks', async () => {
    const stream = new AnswerStream()
    const text = readAll(stream)
    stream.end('done')
    const called: unknown[] = []
    expect(stream.write('late', (error?: Error | null) => called.push(error))).toBe(true)
    stream.end(() => called.push('end callback'))
    expect(await text).toBe('done')
    const destroyed = new AnswerStream()
    destroyed.destroy()
    destroyed.write('lost', (error?: Error | null) => called.push(error))
    await new Promise((resolve) => setImmediate(resolve))
    expect(called).toEqual([null, 'end callback', null])
  })
})
