import type { Readable } from 'node:stream'
import { Pcm16Aligner } from '../speech/Pcm16Aligner.js'
import { UtteranceQueue, isSilent, type QueuedUtterance } from '../speech/UtteranceQueue.js'
import { STT } from './STT.js'

/**
 * What {@link StreamingSTT} needs of a provider connection (a `JsonSocket` satisfies it): whether
 * it ever became usable, whether it is over, and how to drop it.
 */
export interface StreamingConnection {
  /**
   * True once it became usable (opened, or its handshake done), even after it is over. A
   * connection that ends before is a refusal: it is not opened again until new audio comes.
   */
  readonly wasReady: boolean
  /** Over or closing (by either side): the next audio needs a new connection. */
  readonly isOver: boolean
  /** Closes it (at once if it is still opening) without reporting anything. */
  dispose(): void
}

/** One utterance of a {@link StreamingSTT}: its audio not sent yet, where the rest went. */
export interface StreamingUtterance<
  C extends StreamingConnection = StreamingConnection,
> extends QueuedUtterance {
  /** The connection its audio went to: its end fails the utterance. */
  connection?: C
  /** Its end (commit, finalize, flush) was sent: the provider's answer finishes it. */
  endSent: boolean
}

/** The audio an utterance's chunks go through before they are queued (e.g. a resampler). */
export interface StreamingAudio {
  /** Turns whole PCM16 16 kHz samples into what is sent. */
  write(chunk: Buffer): Buffer
  /** What is left to send when the utterance's audio ends. */
  end(): Buffer | undefined
}

/** How a {@link StreamingSTT} runs. */
export interface StreamingSTTOptions {
  /** From an utterance's end sent to its transcript; past it, the connection fails. */
  transcriptionTimeoutMs: number
  /**
   * Whether one utterance at a time is on the wire: the next one's audio waits until this one has
   * its transcript (a protocol whose text does not say which utterance it belongs to). Default
   * false: the next one's audio follows this one's end at once.
   */
  oneAtATime?: boolean
  /**
   * Whether audio waits for the connection's {@link StreamingConnection.wasReady} (a handshake
   * first); the provider calls {@link StreamingSTT.pump} once it is. Default false: the connection
   * queues what is sent before it opens.
   */
  waitForReady?: boolean
}

/**
 * The skeleton every streaming WebSocket STT shares; a provider extends it with its wire mapping
 * only: how to open a connection (`connect`), what to send per chunk (`sendAudio`) and at the end
 * of an utterance (`sendEnd`), and how to read the provider's messages (calling `partial`,
 * `complete` and `failConnection`).
 *
 * The base owns the rest, the same for every provider:
 * - A connection opens when the instance is created, so the first utterance finds it warm, and
 *   again for new audio once it is over (whatever closed it); none is opened again for the audio
 *   that was waiting for a refused one (its utterances fail), so a refusal never loops.
 * - Each utterance's audio is sent as it arrives, in whole PCM16 samples (a byte split across two
 *   chunks waits for the next one), in the order of the `transcribe()` calls; an utterance's audio
 *   waits until the one before it was ended on the wire, and no chunk is ever sent twice (what
 *   went to a connection that died is not replayed).
 * - An utterance in which nothing was said gives `Transcript('')` at once, without a request.
 * - A connection that ends fails every utterance whose audio went to it (or, when it never became
 *   ready, every one waiting for it), with the provider's error; no transcript within
 *   `transcriptionTimeoutMs` of an utterance's end fails its connection.
 * - `destroy()` drops the connection and every timer; nothing is emitted afterwards.
 *
 * @typeParam C - the provider's connection.
 * @typeParam U - its utterance record: {@link StreamingUtterance} and the provider's own fields.
 */
export abstract class StreamingSTT<
  C extends StreamingConnection,
  U extends StreamingUtterance<C> = StreamingUtterance<C>,
> extends STT {
  /** Utterances not finished, in order: audio is sent, and transcripts matched, in this order. */
  protected readonly utterances = new UtteranceQueue<U>()
  /** The connection new audio goes to, until it is over. */
  protected connection: C | undefined
  protected destroyed = false

  constructor(private readonly streaming: StreamingSTTOptions) {
    super()
  }

  /** Each utterance's text comes whole, followed by `TranscriptEnd`. */
  override get signalsTranscriptEnd(): boolean {
    return true
  }

  /** Opens a connection; its messages and its end come back to this STT. */
  protected abstract connect(): C
  /** The provider's fields of a new utterance (its text so far...). */
  protected abstract newUtterance(): Omit<U, keyof StreamingUtterance<C>>
  /** Sends one chunk of an utterance's audio. */
  protected abstract sendAudio(connection: C, chunk: Buffer, utterance: U): void
  /** Ends an utterance on the wire (commit, finalize, flush): its transcript follows. */
  protected abstract sendEnd(connection: C, utterance: U): void
  /** The error of an utterance with no transcript `timeoutMs` after its end. */
  protected abstract timeoutError(timeoutMs: number): Error

  /** What an utterance's chunks go through (default: sent as they are). */
  protected audioFor(): StreamingAudio | undefined {
    return undefined
  }

  /**
   * The text of an utterance whose transcript is complete though not finished yet (it waits for
   * stragglers): its connection ending then gives this text, not a failure. Default: none.
   */
  protected completeText(_utterance: U): string | undefined {
    return undefined
  }

  /** Opens the first connection: call it at the end of the subclass's constructor. */
  protected start(): void {
    this.connection = this.connect()
  }

  transcribe(audio: Readable): void {
    if (this.destroyed) {
      audio.resume()
      return
    }
    const utterance = {
      queue: [],
      sentAudio: false,
      ended: false,
      endSent: false,
      ...this.newUtterance(),
    } as unknown as U
    const aligner = new Pcm16Aligner()
    const convert = this.audioFor()
    const changed = () => this.pump()
    // Stays after the utterance: a stream that fails once it ended must not throw unhandled.
    audio.on('error', ignore)
    if (audio.readableEnded) {
      // A stream that already ended emits no `end`: the utterance is over, with nothing said.
      this.utterances.add(utterance, () => {})
      utterance.ended = true
      return changed()
    }
    this.utterances.follow(utterance, audio, {
      prepare: (chunk) => {
        const whole = aligner.write(chunk)
        return convert && whole.length > 0 ? convert.write(whole) : whole
      },
      tail: () => convert?.end(),
      changed,
    })
  }

  override destroy(): void {
    this.destroyed = true
    this.utterances.close()
    this.connection?.dispose()
    this.connection = undefined
    super.destroy()
  }

  /**
   * Sends what the utterances hold, in order, opening a connection when there is none. Call it
   * when the connection became ready (with `waitForReady`).
   */
  protected pump(): void {
    if (this.destroyed) return
    this.finishSilent()
    const { oneAtATime, waitForReady } = this.streaming
    const waiting = oneAtATime ? this.utterances.items.slice(0, 1) : this.utterances.items
    if (!waiting.some(needsWire)) return
    if (!this.connection || this.connection.isOver) this.connection = this.connect()
    const connection = this.connection
    if (waitForReady && !connection.wasReady) return
    for (const utterance of waiting) {
      if (utterance.endSent) continue
      for (const chunk of utterance.queue.splice(0)) {
        utterance.connection = connection
        utterance.sentAudio = true
        this.sendAudio(connection, chunk, utterance)
      }
      // The next utterance's audio waits for this one's end, so that its end cuts at the right place.
      if (!utterance.ended) return
      utterance.endSent = true
      this.sendEnd(connection, utterance)
      const timeoutMs = this.streaming.transcriptionTimeoutMs
      utterance.timer = setTimeout(
        () => this.failConnection(connection, this.timeoutError(timeoutMs)),
        timeoutMs
      )
    }
  }

  /** The utterance the next text of `connection` belongs to: the oldest one whose audio went there. */
  protected current(connection: C): U | undefined {
    return this.utterances.items.find((u) => u.connection === connection)
  }

  /** The oldest utterance of `connection` whose end was sent: the one its final answer is for. */
  protected ending(connection: C): U | undefined {
    return this.utterances.items.find((u) => u.connection === connection && u.endSent)
  }

  /** Emits an utterance's interim text (its whole text so far). */
  protected partial(text: string): void {
    this.emit('Partial', text)
  }

  /** Finishes an utterance with its whole text: `Transcript`, then `TranscriptEnd`. */
  protected complete(utterance: U, text: string): void {
    const finished = this.utterances.finish(utterance, () => {
      this.log(`Transcript: "${text}"`)
      this.emitFinalTranscript(text)
    })
    // With one utterance at a time on the wire, the next one's audio goes now.
    if (finished) this.pump()
  }

  /**
   * Drops a connection: every utterance whose audio went to it (or, when it never became ready,
   * every one waiting for it) fails with `error`; utterances whose audio is all still here go to
   * the next one. After a refusal, only new audio opens another (no loop of refused connections).
   */
  protected failConnection(connection: C, error: Error): void {
    if (this.destroyed) return
    const refused = !connection.wasReady
    connection.dispose()
    if (this.connection === connection) this.connection = undefined
    const candidates = this.streaming.oneAtATime
      ? this.utterances.items.slice(0, 1)
      : this.utterances.items
    const lost = candidates.filter(
      (u) => u.connection === connection || (refused && !u.endSent && needsWire(u))
    )
    if (lost.length === 0) this.log('Connection ended:', error.message)
    for (const utterance of lost) {
      const text = this.completeText(utterance)
      if (text !== undefined) {
        this.utterances.finish(utterance, () => this.emitFinalTranscript(text))
        continue
      }
      this.utterances.finish(utterance, () => {
        this.log('Failed:', error.message)
        this.emit('Failed', error)
      })
    }
    // Utterances that failed with the refusal may have held others back (one at a time).
    if (!refused || lost.length > 0) this.pump()
  }

  /** Nothing was said: an empty transcript, without a request. */
  private finishSilent(): void {
    if (this.streaming.oneAtATime) {
      // In order: an empty transcript never overtakes the one on the wire.
      let head = this.utterances.head
      while (head && isSilent(head)) {
        this.utterances.finish(head, () => this.emitFinalTranscript(''))
        head = this.utterances.head
      }
      return
    }
    for (const utterance of this.utterances.silent()) {
      this.utterances.finish(utterance, () => this.emitFinalTranscript(''))
    }
  }
}

function ignore(): void {}

/** An utterance with something to send: audio, or its end. */
function needsWire(utterance: StreamingUtterance): boolean {
  return !utterance.endSent && (utterance.queue.length > 0 || utterance.ended)
}
