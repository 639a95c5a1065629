import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import {
  StreamingSTT,
  type StreamingConnection,
  type StreamingSTTOptions,
  type StreamingUtterance,
} from './StreamingSTT.js'

/** A connection in memory: what was sent on it, and whether it opened. */
class FakeConnection implements StreamingConnection {
  wasReady = false
  isOver = false
  readonly sent: string[] = []
  disposed = false
  dispose(): void {
    this.isOver = true
    this.disposed = true
  }
}

/** The smallest wire mapping: audio as hex, `end` at the end; the test plays the provider. */
class TestSTT extends StreamingSTT<FakeConnection> {
  readonly connections: FakeConnection[] = []
  constructor(
    private readonly options: Partial<StreamingSTTOptions> = {},
    private readonly failAudio = false
  ) {
    super({ transcriptionTimeoutMs: 60_000, ...options })
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
    // One connection per utterance: its end ends the session.
    if (this.perUtterance) connection.isOver = true
  }
  protected override discardAudio(connection: FakeConnection): void {
    connection.sent.push('discard')
  }
  protected override audioFailure(error: unknown): Error | undefined {
    return this.failAudio ? new Error(`audio failed: ${(error as Error).message}`) : undefined
  }
  private get perUtterance(): boolean {
    return this.options.connectionPerUtterance === true
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
  /** The provider answers (or fails) the n-th utterance not finished, whatever its order. */
  answerNth(index: number, text: string): void {
    this.complete(this.pending(index), text)
  }
  failNth(index: number, error: Error): void {
    this.failUtterance(this.pending(index), error)
  }
  private pending(index: number): StreamingUtterance<FakeConnection> {
    return this.utterances.items.filter((u) => u.transcript === undefined)[index]!
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

  it('emits transcripts in the order of the utterances, whatever order they come in', async () => {
    const stt = new TestSTT()
    const seen = events(stt)
    for (const bytes of [
      [1, 2],
      [3, 4],
    ]) {
      const audio = new PassThrough()
      stt.transcribe(audio)
      audio.end(Buffer.from(bytes))
    }
    await tick()
    expect(stt.connections[0]!.sent).toEqual(['0102', 'end', '0304', 'end'])
    stt.answerNth(1, 'second')
    expect(seen).toEqual([])
    stt.answerNth(0, 'first')
    expect(seen).toEqual(['Transcript first', 'Transcript second'])
    stt.destroy()
  })

  it('fails one utterance at once and keeps its connection; a later transcript waits for nobody', async () => {
    const stt = new TestSTT()
    const seen = events(stt)
    const first = new PassThrough()
    stt.transcribe(first)
    first.write(Buffer.from([1, 2]))
    const second = new PassThrough()
    stt.transcribe(second)
    second.end(Buffer.from([3, 4]))
    await tick()
    stt.failNth(0, new Error('bad audio'))
    expect(seen).toEqual(['Failed bad audio'])
    // What it had sent is dropped on the wire; the next utterance goes on on the same connection.
    expect(stt.connections[0]!.sent).toEqual(['0102', 'discard', '0304', 'end'])
    first.end(Buffer.from([9, 9]))
    await tick()
    stt.answerNth(0, 'second')
    expect(seen).toEqual(['Failed bad audio', 'Transcript second'])
    expect(stt.connections).toHaveLength(1)
    stt.destroy()
  })

  it('gives an empty transcript for less audio than minAudioBytes, and discards it', async () => {
    const stt = new TestSTT({ minAudioBytes: 4 })
    const seen = events(stt)
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.end(Buffer.from([1, 2]))
    await tick()
    expect(seen).toEqual(['Transcript '])
    expect(stt.connections[0]!.sent).toEqual(['0102', 'discard'])
    stt.destroy()
  })

  it('ends an utterance whose audio stream fails with what was heard, unless audioFailure says', async () => {
    const ending = new TestSTT()
    const broken = new PassThrough()
    ending.transcribe(broken)
    broken.write(Buffer.from([1, 2]))
    await tick()
    broken.destroy(new Error('client gone'))
    await tick()
    expect(ending.connections[0]!.sent).toEqual(['0102', 'end'])
    ending.destroy()

    const failing = new TestSTT({}, true)
    const seen = events(failing)
    const audio = new PassThrough()
    failing.transcribe(audio)
    audio.write(Buffer.from([1, 2]))
    await tick()
    audio.destroy(new Error('client gone'))
    await tick()
    expect(seen).toEqual(['Failed audio failed: client gone'])
    expect(failing.connections[0]!.sent).toEqual(['0102', 'discard'])
    failing.destroy()
  })

  it('with connectionPerUtterance, each utterance has its own connection, the next opened ahead', async () => {
    const stt = new TestSTT({ connectionPerUtterance: true })
    const seen = events(stt)
    for (const bytes of [
      [1, 2],
      [3, 4],
    ]) {
      const audio = new PassThrough()
      stt.transcribe(audio)
      audio.end(Buffer.from(bytes))
    }
    await tick()
    expect(stt.connections.map((c) => c.sent)).toEqual([
      ['0102', 'end'],
      ['0304', 'end'],
    ])
    stt.answerNth(0, 'one')
    stt.answerNth(0, 'two')
    expect(seen).toEqual(['Transcript one', 'Transcript two'])
    // Opened once an utterance had its transcript: the next one finds it warm.
    expect(stt.connections).toHaveLength(3)
    expect(stt.connections[2]!.sent).toEqual([])
    stt.destroy()
  })

  it('destroy() closes every connection an utterance still waits on', async () => {
    const stt = new TestSTT({ connectionPerUtterance: true })
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.end(Buffer.from([1, 2]))
    await tick()
    const next = new PassThrough()
    stt.transcribe(next)
    next.write(Buffer.from([3, 4]))
    await tick()
    expect(stt.connections).toHaveLength(2)
    stt.destroy()
    expect(stt.connections.map((c) => c.disposed)).toEqual([true, true])
  })
})
