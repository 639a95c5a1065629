import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { StreamingSTT, type StreamingConnection } from './StreamingSTT.js'

/** A connection in memory: what was sent on it, and whether it opened. */
class FakeConnection implements StreamingConnection {
  wasReady = false
  isOver = false
  readonly sent: string[] = []
  dispose(): void {
    this.isOver = true
  }
}

/** The smallest wire mapping: audio as hex, `end` at the end; the test plays the provider. */
class TestSTT extends StreamingSTT<FakeConnection> {
  readonly connections: FakeConnection[] = []
  constructor() {
    super({ transcriptionTimeoutMs: 60_000 })
    this.start()
  }
  protected connect(): FakeConnection {
    const connection = new FakeConnection()
    this.connections.push(connection)
    return connection
  }
  protected newUtterance() {
    return {}
  }
  protected sendAudio(connection: FakeConnection, chunk: Buffer): void {
    connection.sent.push(chunk.toString('hex'))
  }
  protected sendEnd(connection: FakeConnection): void {
    connection.sent.push('end')
  }
  protected timeoutError(timeoutMs: number): Error {
    return new Error(`no transcript in ${timeoutMs} ms`)
  }
  /** The provider answers the oldest ended utterance of `connection`. */
  answer(connection: FakeConnection, text: string): void {
    const utterance = this.ending(connection)
    if (utterance) this.complete(utterance, text)
  }
  fail(connection: FakeConnection, error: Error): void {
    this.failConnection(connection, error)
  }
}

function events(stt: TestSTT): string[] {
  const seen: string[] = []
  stt.on('Transcript', (text) => seen.push(`Transcript ${text}`))
  stt.on('Failed', (error) => seen.push(`Failed ${(error as Error).message}`))
  return seen
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('StreamingSTT', () => {
  it('sends whole PCM16 samples: a byte split across two chunks waits for the next one', async () => {
    const stt = new TestSTT()
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.write(Buffer.from([1, 2, 3]))
    audio.write(Buffer.from([4]))
    audio.end()
    await tick()
    expect(stt.connections[0]!.sent).toEqual(['0102', '0304', 'end'])
    stt.destroy()
  })

  it('fails the utterances of a refused connection and opens none until new audio comes', async () => {
    const stt = new TestSTT()
    const seen = events(stt)
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.end(Buffer.from([1, 2]))
    await tick()
    stt.fail(stt.connections[0]!, new Error('HTTP 401'))
    expect(seen).toEqual(['Failed HTTP 401'])
    expect(stt.connections).toHaveLength(1)

    const next = new PassThrough()
    stt.transcribe(next)
    next.end(Buffer.from([5, 6]))
    await tick()
    expect(stt.connections).toHaveLength(2)
    expect(stt.connections[1]!.sent).toEqual(['0506', 'end'])
    stt.destroy()
  })

  it('after a connection that opened and closed, the next audio goes to a new one, never replayed', async () => {
    const stt = new TestSTT()
    const seen = events(stt)
    const first = stt.connections[0]!
    first.wasReady = true
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.write(Buffer.from([1, 2]))
    await tick()
    stt.fail(first, new Error('connection closed (code 1000)'))
    audio.end(Buffer.from([3, 4]))
    await tick()
    expect(seen).toEqual(['Failed connection closed (code 1000)'])

    const next = new PassThrough()
    stt.transcribe(next)
    next.end(Buffer.from([7, 8]))
    await tick()
    const second = stt.connections[1]!
    expect(second.sent).toEqual(['0708', 'end'])
    stt.answer(second, 'hello')
    expect(seen).toEqual(['Failed connection closed (code 1000)', 'Transcript hello'])
    stt.destroy()
  })

  it('gives an empty transcript for an utterance with no audio, without sending anything', async () => {
    const stt = new TestSTT()
    const seen = events(stt)
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.end()
    await tick()
    expect(seen).toEqual(['Transcript '])
    expect(stt.connections[0]!.sent).toEqual([])
    stt.destroy()
  })
})
