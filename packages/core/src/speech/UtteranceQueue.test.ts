import { PassThrough } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import { UtteranceQueue, type QueuedUtterance } from './UtteranceQueue.js'

interface TestUtterance extends QueuedUtterance {
  name: string
}

function utterance(name: string): TestUtterance {
  return { name, queue: [], sentAudio: false, ended: false }
}

describe('UtteranceQueue', () => {
  it('queues each non-empty chunk as a copy, then marks the utterance ended', () => {
    const queue = new UtteranceQueue<TestUtterance>()
    const audio = new PassThrough()
    const u = utterance('a')
    const changed = vi.fn()
    queue.follow(u, audio, { changed })
    const chunk = Buffer.from([1, 2])
    audio.write(chunk)
    audio.write(Buffer.alloc(0))
    chunk[0] = 9
    expect(u.queue).toEqual([Buffer.from([1, 2])])
    expect(changed).toHaveBeenCalledTimes(1)
    audio.end()
    audio.resume()
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(u.ended).toBe(true)
        expect(changed).toHaveBeenCalledTimes(2)
        resolve()
      })
    )
  })

  it('queues what prepare makes of a chunk and the tail at the end', async () => {
    const queue = new UtteranceQueue<TestUtterance>()
    const audio = new PassThrough()
    const u = utterance('a')
    queue.follow(u, audio, {
      prepare: (chunk) => (chunk.length > 1 ? chunk.subarray(1) : Buffer.alloc(0)),
      tail: () => Buffer.from([7]),
      changed: () => {},
    })
    audio.write(Buffer.from([1, 2, 3]))
    audio.write(Buffer.from([4]))
    audio.end()
    await new Promise((resolve) => audio.once('end', resolve))
    expect(u.queue).toEqual([Buffer.from([2, 3]), Buffer.from([7])])
    expect(u.ended).toBe(true)
  })

  it('ends an utterance whose stream fails, with what was heard', () => {
    const queue = new UtteranceQueue<TestUtterance>()
    const audio = new PassThrough()
    const u = utterance('a')
    queue.follow(u, audio, { changed: () => {} })
    audio.write(Buffer.from([1, 2]))
    audio.emit('error', new Error('mic unplugged'))
    expect(u.ended).toBe(true)
    expect(u.queue).toHaveLength(1)
    expect(audio.listenerCount('data')).toBe(0)
  })

  it('tells the utterances in which nothing was said', () => {
    const queue = new UtteranceQueue<TestUtterance>()
    const said = { ...utterance('said'), ended: true, sentAudio: true }
    const waiting = { ...utterance('waiting'), ended: true, queue: [Buffer.from([1])] }
    const silent = { ...utterance('silent'), ended: true }
    const streaming = utterance('streaming')
    for (const u of [said, waiting, silent, streaming]) queue.add(u, () => {})
    expect(queue.silent().map((u) => u.name)).toEqual(['silent'])
  })

  it('finishes an utterance once: stops following it, clears its timer, drops its audio', () => {
    const queue = new UtteranceQueue<TestUtterance>()
    const audio = new PassThrough()
    const first = utterance('first')
    const second = utterance('second')
    queue.follow(first, audio, { changed: () => {} })
    queue.add(second, () => {})
    audio.write(Buffer.from([1, 2]))
    const timeout = vi.fn()
    first.timer = setTimeout(timeout, 0)
    const emit = vi.fn()
    expect(queue.head).toBe(first)
    expect(queue.finish(first, emit)).toBe(true)
    expect(queue.finish(first, emit)).toBe(false)
    expect(emit).toHaveBeenCalledTimes(1)
    expect(first.queue).toEqual([])
    expect(audio.listenerCount('data')).toBe(0)
    expect(audio.listenerCount('end')).toBe(0)
    expect(audio.listenerCount('error')).toBe(0)
    expect(queue.items).toEqual([second])
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        expect(timeout).not.toHaveBeenCalled()
        resolve()
      }, 5)
    )
  })

  it('releases every utterance on close, and emits nothing afterwards', () => {
    const queue = new UtteranceQueue<TestUtterance>()
    const audio = new PassThrough()
    const u = utterance('a')
    queue.follow(u, audio, { changed: () => {} })
    audio.write(Buffer.from([1, 2]))
    queue.close()
    expect(queue.items).toEqual([])
    expect(u.queue).toEqual([])
    expect(audio.listenerCount('data')).toBe(0)
    const emit = vi.fn()
    expect(queue.finish(u, emit)).toBe(false)
    const late = utterance('late')
    const detach = vi.fn()
    queue.add(late, detach)
    expect(detach).toHaveBeenCalled()
    expect(queue.items).toEqual([])
  })
})
