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
  disposed = false
  readonly sent: string[] = []
  dispose(): void {
    this.isOver = true
    this.disposed = true
  }
}

/** A connection that speaks the protocol itself (a `StreamingWire`). */
class WireConnection extends FakeConnection {
  sendAudio(chunk: Buffer): void {
    this.sent.push(`wire ${chunk.toString('hex')}`)
  }
  sendEnd(): void {
    this.sent.push('wire end')
  }
}

interface TestOptions extends Partial<StreamingSTTOptions> {
  /** Fail an utterance whose audio stream fails (`audioFailure`). */
  failAudio?: boolean
}

/** An STT on `StreamingSTT` with no wire mapping of its own; the test plays the provider. */
class BareSTT<C extends FakeConnection = FakeConnection> extends StreamingSTT<C> {
  readonly connections: C[] = []
  constructor(
    private readonly open: () => C,
    protected readonly options: TestOptions = {}
  ) {
    super({ transcriptionTimeoutMs: 60_000, ...options })
    this.start()
  }
  protected connect(): C {
    const connection = this.open()
    this.connections.push(connection)
    return connection
  }
  protected newUtterance() {
    return {}
  }
  protected timeoutError(timeoutMs: number): Error {
    return new Error(`no transcript in ${timeoutMs} ms`)
  }
  protected override discardAudio(connection: C): void {
    connection.sent.push('discard')
  }
  protected override audioFailure(error: unknown): Error | undefined {
    if (!this.options.failAudio) return undefined
    return new Error(`audio failed: ${(error as Error).message}`)
  }
  /** The provider answers the oldest ended utterance of `connection`. */
  answer(connection: C, text: string): void {
    const utterance = this.ending(connection)
    if (utterance) this.complete(utterance, text)
  }
  fail(connection: C, error: Error): void {
    this.failConnection(connection, error)
  }
  /** The provider answers (or fails) the n-th utterance not finished, whatever its order. */
  answerNth(index: number, text: string): void {
    this.complete(this.waitingAt(index), text)
  }
  failNth(index: number, error: Error): void {
    this.failUtterance(this.waitingAt(index), error)
  }
  private waitingAt(index: number): StreamingUtterance<C> {
    return this.utterances.items.filter((u) => this.isWaiting(u))[index]!
  }
}

/** The smallest wire mapping: audio as hex, `end` at the end. */
class TestSTT extends BareSTT {
  constructor(options: TestOptions = {}) {
    super(() => new FakeConnection(), options)
  }
  protected override sendAudio(connection: FakeConnection, chunk: Buffer): void {
    connection.sent.push(chunk.toString('hex'))
  }
  protected override sendEnd(connection: FakeConnection): void {
    connection.sent.push('end')
    // One connection per utterance: its end ends the session.
    if (this.options.connectionPerUtterance) connection.isOver = true
  }
}

function events(stt: StreamingSTT<any, any>): string[] {
  const seen: string[] = []
  stt.on('Transcript', (text) => seen.push(`Transcript ${text}`))
  stt.on('Failed', (error) => seen.push(`Failed ${(error as Error).message}`))
  return seen
}

/** One utterance's audio stream, given to the STT: each array is a chunk of bytes. */
function say(stt: StreamingSTT<any, any>, ...chunks: number[][]): PassThrough {
  const audio = new PassThrough()
  stt.transcribe(audio)
  for (const chunk of chunks) audio.write(Buffer.from(chunk))
  return audio
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('StreamingSTT', () => {
  it('sends whole PCM16 samples: a byte split across two chunks waits for the next one', async () => {
    const stt = new TestSTT()
    say(stt, [1, 2, 3], [4]).end()
    await tick()
    expect(stt.connections[0]!.sent).toEqual(['0102', '0304', 'end'])
    stt.destroy()
  })

  it('fails the utterances of a refused connection and opens none until new audio comes', async () => {
    const stt = new TestSTT()
    const seen = events(stt)
    say(stt, [1, 2]).end()
    await tick()
    stt.fail(stt.connections[0]!, new Error('HTTP 401'))
    expect(seen).toEqual(['Failed HTTP 401'])
    expect(stt.connections).toHaveLength(1)

    say(stt, [5, 6]).end()
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
    const audio = say(stt, [1, 2])
    await tick()
    stt.fail(first, new Error('connection closed (code 1000)'))
    audio.end(Buffer.from([3, 4]))
    await tick()
    expect(seen).toEqual(['Failed connection closed (code 1000)'])

    say(stt, [7, 8]).end()
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
    say(stt).end()
    await tick()
    expect(seen).toEqual(['Transcript '])
    expect(stt.connections[0]!.sent).toEqual([])
    stt.destroy()
  })

  it('emits transcripts in the order of the utterances, whatever order they come in', async () => {
    const stt = new TestSTT()
    const seen = events(stt)
    say(stt, [1, 2]).end()
    say(stt, [3, 4]).end()
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
    const first = say(stt, [1, 2])
    say(stt, [3, 4]).end()
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
    say(stt, [1, 2]).end()
    await tick()
    expect(seen).toEqual(['Transcript '])
    expect(stt.connections[0]!.sent).toEqual(['0102', 'discard'])
    stt.destroy()
  })

  it('ends an utterance whose audio stream fails with what was heard, unless audioFailure says', async () => {
    for (const failAudio of [false, true]) {
      const stt = new TestSTT({ failAudio })
      const seen = events(stt)
      const audio = say(stt, [1, 2])
      await tick()
      audio.destroy(new Error('client gone'))
      await tick()
      expect(seen).toEqual(failAudio ? ['Failed audio failed: client gone'] : [])
      expect(stt.connections[0]!.sent).toEqual(['0102', failAudio ? 'discard' : 'end'])
      stt.destroy()
    }
  })

  it('with connectionPerUtterance, each utterance has its own connection, the next opened ahead', async () => {
    const stt = new TestSTT({ connectionPerUtterance: true })
    const seen = events(stt)
    say(stt, [1, 2]).end()
    say(stt, [3, 4]).end()
    await tick()
    expect(stt.connections.map((c) => c.sent)).toEqual([
      ['0102', 'end'],
      ['0304', 'end'],
    ])
    const whileHeard: number[] = []
    stt.on('Transcript', () => whileHeard.push(stt.connections.length))
    stt.answerNth(0, 'one')
    stt.answerNth(0, 'two')
    expect(seen).toEqual(['Transcript one', 'Transcript two'])
    // Opened once an utterance had its transcript, so that the next one finds it warm; not while
    // the transcript's listeners run (the answer's request goes first), and only once.
    expect(whileHeard).toEqual([2, 2])
    await new Promise((resolve) => setImmediate(resolve))
    expect(stt.connections).toHaveLength(3)
    expect(stt.connections[2]!.sent).toEqual([])
    stt.destroy()
  })

  it('destroy() closes every connection an utterance still waits on', async () => {
    const stt = new TestSTT({ connectionPerUtterance: true })
    say(stt, [1, 2]).end()
    await tick()
    say(stt, [3, 4])
    await tick()
    expect(stt.connections).toHaveLength(2)
    stt.destroy()
    expect(stt.connections.map((c) => c.disposed)).toEqual([true, true])
  })

  it('lets a connection that speaks the protocol itself take the audio and the end', async () => {
    const stt = new BareSTT(() => new WireConnection())
    say(stt, [1, 2]).end()
    await tick()
    expect(stt.connections[0]!.sent).toEqual(['wire 0102', 'wire end'])
    stt.destroy()
  })

  it('says at once that a connection without sendAudio() needs the STT to send the audio', () => {
    expect(() => new BareSTT(() => new FakeConnection())).toThrow(/override them in the STT/)
  })

  it('names its provider for tracing as the subclass says', () => {
    const named = new TestSTT({ providerName: 'acme' })
    expect(named.providerName).toBe('acme')
    named.destroy()
  })
})
