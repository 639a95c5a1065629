import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { followText } from './follow-stream.js'

function follow(stream: PassThrough) {
  const events: string[] = []
  const detach = followText(stream, {
    data: (text) => events.push(`data:${text}`),
    end: () => events.push('end'),
    error: (error) => events.push(`error:${(error as Error).message}`),
  })
  return { events, detach }
}

describe('followText', () => {
  it('hands over a character whose UTF-8 bytes are split across two chunks whole', async () => {
    const stream = new PassThrough()
    const { events } = follow(stream)
    const bytes = Buffer.from('café ñ', 'utf8')
    stream.write(bytes.subarray(0, 4)) // "caf" and the first byte of "é"
    stream.write(bytes.subarray(4))
    stream.end()
    await new Promise((resolve) => setImmediate(resolve))
    expect(events.filter((e) => e.startsWith('data:')).join('|')).toBe('data:caf|data:é ñ')
    expect(events.at(-1)).toBe('end')
  })

  it('passes strings through, hands over bytes the decoder still held before end, and reports errors', async () => {
    const stream = new PassThrough({ objectMode: true })
    const { events } = follow(stream)
    stream.write('Hello ')
    stream.write(Buffer.from([0xc3])) // a character cut short by the end of the text
    stream.end()
    await new Promise((resolve) => setImmediate(resolve))
    expect(events).toEqual(['data:Hello ', 'data:', 'data:\ufffd', 'end'])

    const broken = new PassThrough()
    const { events: brokenEvents } = follow(broken)
    broken.destroy(new Error('broken'))
    await new Promise((resolve) => setImmediate(resolve))
    expect(brokenEvents).toEqual(['error:broken'])
  })

  it('stops listening once detached', async () => {
    const stream = new PassThrough()
    const { events, detach } = follow(stream)
    detach()
    stream.end('late')
    await new Promise((resolve) => setImmediate(resolve))
    expect(events).toEqual([])
  })
})
