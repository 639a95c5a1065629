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

/**
 * A connection that speaks the provider's protocol itself: a {@link StreamingSTT} whose connection
 * is one needs no `sendAudio` or `sendEnd` of its own.
 */
export interface StreamingWire {
  /** Sends one chunk of the current utterance's audio. */
  sendAudio(chunk: Buffer): void
  /** Ends the current utterance on the wire (commit, finalize, flush): its transcript follows. */
  sendEnd(): void
}

/** One utterance of a {@link StreamingSTT}: its audio not sent yet, where the rest went. */
export interface StreamingUtterance<
  C extends StreamingConnection = StreamingConnection,
> extends QueuedUtterance {
  /** The connection its audio went to: its end fails the utterance. */
  connection?: C
  /** Its end (commit, finalize, flush) was sent: the provider's answer finishes it. */
  endSent: boolean
  /** Bytes of its audio sent, as sent (after {@link StreamingSTT.audioFor}). */
  sentBytes: number
  /**
   * Its transcript, once the provider gave it: held until every utterance before it has its
   * outcome, so that transcripts are emitted in the order of the utterances.
   */
  transcript?: string
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
  /** Who provides the transcription, for tracing (`openai`, `gladia`...; default: STT's). */
  providerName?: string
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
  /**
   * Whether a connection serves one utterance only (a protocol whose end of audio ends the
   * session, as Gladia's `stop_recording`): the provider's connection is over once the end is sent,
   * so the next utterance's audio opens a new one, and a new one is opened as soon as an utterance
   * has its transcript, so that the next utterance finds it warm. Default false.
   */
  connectionPerUtterance?: boolean
  /**
   * Least audio the provider transcribes, in bytes as sent (after {@link StreamingSTT.audioFor}):
   * an utterance with less gets `Transcript('')` when its audio ends, its end is not sent and
   * {@link StreamingSTT.discardAudio} drops what was sent (OpenAI refuses to commit under 100 ms).
   * Default 0.
   */
  minAudioBytes?: number
}

/**
 * The skeleton every streaming WebSocket STT shares; a provider extends it with its wire mapping
 * only: how to open a connection (`connect`), what to send per chunk (`sendAudio`) and at the end
 * of an utterance (`sendEnd`), unless its connection sends them itself (a {@link StreamingWire}),
 * and how to read the provider's messages (calling `partial`, `complete`, `failUtterance` and
 * `failConnection`).
 *
 * The base owns the rest, the same for every provider:
 * - A connection opens when the instance is created, so the first utterance finds it warm, and
 *   again for new audio once it is over (whatever closed it); none is opened again for the audio
 *   that was waiting for a refused one (its utterances fail), so a refusal never loops.
 * - Each utterance's audio is sent as it arrives, in whole PCM16 samples (a byte split across two
 *   chunks waits for the next one), in the order of the `transcribe()` calls; an utterance's audio
 *   waits until the one before it was ended on the wire, and no chunk is ever sent twice (what
 *   went to a connection that died is not replayed).
 * - An utterance in which nothing was said gives `Transcript('')` without a request, and so does
 *   one with less than `minAudioBytes` of audio.
 * - Transcripts are emitted in the order of the utterances: one that comes early waits for every
 *   utterance before it. A failure is emitted as soon as it is known (a fallback can take over).
 * - A connection that ends fails every utterance whose audio went to it (or, when it never became
 *   ready, every one waiting for it), with the provider's error; no transcript within
 *   `transcriptionTimeoutMs` of an utterance's end fails its connection. An error about one
 *   utterance only (`failUtterance`) fails that one and keeps the connection.
 * - An utterance whose audio stream fails ends with what was heard, unless the provider's
 *   `audioFailure` gives an error to fail it with.
 * - `destroy()` drops every connection and every timer; nothing is emitted afterwards.
 *
 * Gladia's live sessions fit with `connectionPerUtterance`. What does not fit, and stays a plain
 * `STT`: a provider without a stream of utterances over a connection (a request per utterance, a
 * local decoder in a worker thread, as `LocalSTT`).
 *
 * @typeParam C - the provider's connection.
 * @typeParam U - its utterance record: {@link StreamingUtterance} and the provider's own fields.
 */
export abstract class StreamingSTT<
  C extends StreamingConnection,
  U extends StreamingUtterance<C> = StreamingUtterance<C>,
> extends STT {
  /** Utterances not finished, in order: audio is sent, and transcripts emitted, in this order. */
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

  override get providerName(): string {
    return this.streaming.providerName ?? super.providerName
  }

  /** Opens a connection; its messages and its end come back to this STT. */
  protected abstract connect(): C
  /** The provider's fields of a new utterance (its text so far...). */
  protected abstract newUtterance(): Omit<U, keyof StreamingUtterance<C>>
  /**
   * Sends one chunk of an utterance's audio. Default: the connection's own `sendAudio`, for a
   * connection that is a {@link StreamingWire}.
   */
  protected sendAudio(connection: C, chunk: Buffer, _utterance: U): void {
    wireOf(connection).sendAudio(chunk)
  }

  /**
   * Ends an utterance on the wire (commit, finalize, flush): its transcript follows. Default: the
   * connection's own `sendEnd`, for a connection that is a {@link StreamingWire}.
   */
  protected sendEnd(connection: C, _utterance: U): void {
    wireOf(connection).sendEnd()
  }
  /** The error of an utterance with no transcript `timeoutMs` after its end. */
  protected abstract timeoutError(timeoutMs: number): Error

  /** What an utterance's chunks go through (default: sent as they are). */
  protected audioFor(): StreamingAudio | undefined {
    return undefined
  }

  /**
   * Drops on the wire the audio an utterance sent but will never end (it failed, or is under
   * `minAudioBytes`), so that it is not transcribed with the next one's. Default: nothing (the
   * protocol keeps no audio between ends, or the connection is dropped with the utterance).
   */
  protected discardAudio(_connection: C, _utterance: U): void {}

  /**
   * The error an utterance fails with when its audio stream fails. Default none: the utterance
   * ends with what was heard, and is transcribed.
   */
  protected audioFailure(_error: unknown): Error | undefined {
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
    const connection = this.connect()
    this.connection = connection
    const base = StreamingSTT.prototype
    if (this.sendAudio !== base.sendAudio && this.sendEnd !== base.sendEnd) return
    // A wire mapping that is missing is said at once, not at the first utterance's audio.
    try {
      wireOf(connection)
    } catch (error) {
      this.destroy()
      throw error
    }
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
      sentBytes: 0,
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
      failed: (error) => {
        const failure = this.audioFailure(error)
        if (failure) this.failUtterance(utterance, failure)
        return failure !== undefined
      },
    })
  }

  override destroy(): void {
    this.destroyed = true
    // An earlier connection may still be open with an utterance waiting on it.
    const connections = new Set([
      this.connection,
      ...this.utterances.items.map((u) => u.connection),
    ])
    this.utterances.close()
    for (const connection of connections) connection?.dispose()
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
    const waiting = this.streaming.oneAtATime
      ? this.utterances.items.slice(0, 1)
      : [...this.utterances.items]
    for (const utterance of waiting) {
      if (!needsWire(utterance)) {
        // Streaming with nothing new: the next one's audio waits for its end.
        if (!utterance.endSent && utterance.transcript === undefined) return
        continue
      }
      // Its audio went to a connection that is over: it fails with that one, none of it resent.
      if (utterance.connection?.isOver) continue
      const connection = this.connectionForAudio()
      if (!connection) return
      for (const chunk of utterance.queue.splice(0)) {
        utterance.connection = connection
        utterance.sentAudio = true
        utterance.sentBytes += chunk.length
        this.sendAudio(connection, chunk, utterance)
      }
      // The next utterance's audio waits for this one's end, so that its end cuts at the right place.
      if (!utterance.ended) return
      this.endUtterance(connection, utterance)
    }
  }

  /** The utterance the next text of `connection` belongs to: the oldest one whose audio went there. */
  protected current(connection: C): U | undefined {
    return this.utterances.items.find((u) => u.connection === connection && unanswered(u))
  }

  /** The oldest utterance of `connection` whose end was sent: the one its final answer is for. */
  protected ending(connection: C): U | undefined {
    return this.utterances.items.find(
      (u) => u.connection === connection && u.endSent && unanswered(u)
    )
  }

  /**
   * Whether an utterance still waits for its outcome: what the provider says of one that failed,
   * or already has its transcript, is dropped.
   */
  protected isWaiting(utterance: U): boolean {
    return this.utterances.items.includes(utterance) && unanswered(utterance)
  }

  /** Emits an utterance's interim text (its whole text so far). */
  protected partial(text: string): void {
    this.emit('Partial', text)
  }

  /**
   * Finishes an utterance with its whole text: `Transcript`, then `TranscriptEnd`, once every
   * utterance before it has its outcome. Nothing happens for one already finished.
   */
  protected complete(utterance: U, text: string): void {
    if (!this.recordTranscript(utterance, text)) return
    // One connection per utterance: the next one opens ahead, so the next utterance finds it
    // warm; once the transcript's listeners are done (the answer's model request goes first: its
    // handshake would hold that request back, at the moment the user waits for the answer).
    if (this.streaming.connectionPerUtterance) setImmediate(() => this.openAhead())
    // With one utterance at a time on the wire, the next one's audio goes now.
    this.pump()
  }

  /** Opens the next connection ahead (`connectionPerUtterance`), unless audio already did. */
  private openAhead(): void {
    if (this.destroyed || (this.connection && !this.connection.isOver)) return
    this.connection = this.connect()
  }

  /**
   * Fails one utterance with `error`, at once, and keeps its connection (an error the provider
   * said is about that utterance only). Audio it sent without its end is dropped on the wire
   * (`discardAudio`); the rest of its stream is ignored. Nothing happens for one already finished.
   */
  protected failUtterance(utterance: U, error: Error): void {
    if (this.destroyed || !this.isWaiting(utterance)) return
    const { connection } = utterance
    if (connection && utterance.sentAudio && !utterance.endSent && !connection.isOver) {
      this.discardAudio(connection, utterance)
    }
    this.emitFailed(utterance, error)
    this.emitInOrder()
    this.pump()
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
      : [...this.utterances.items]
    const lost = candidates.filter(
      (u) => unanswered(u) && (u.connection === connection || (refused && needsWire(u)))
    )
    // Said alone: the error names the provider and what ended the connection.
    if (lost.length === 0) this.log(error.message)
    for (const utterance of lost) {
      const text = this.completeText(utterance)
      if (text !== undefined) this.recordTranscript(utterance, text)
      else this.emitFailed(utterance, error)
    }
    this.emitInOrder()
    // Utterances that failed with the refusal may have held others back.
    if (!refused || lost.length > 0) this.pump()
  }

  /** The connection audio goes to now: opened when there is none or it is over; none until ready. */
  private connectionForAudio(): C | undefined {
    if (!this.connection || this.connection.isOver) this.connection = this.connect()
    const connection = this.connection
    return this.streaming.waitForReady && !connection.wasReady ? undefined : connection
  }

  /** Sends an utterance's end, with its transcription timeout; too little audio ends it here. */
  private endUtterance(connection: C, utterance: U): void {
    utterance.endSent = true
    if (utterance.sentBytes < (this.streaming.minAudioBytes ?? 0)) {
      // The provider would refuse to transcribe it: nothing was said.
      this.discardAudio(connection, utterance)
      this.recordTranscript(utterance, '')
      return
    }
    const timeoutMs = this.streaming.transcriptionTimeoutMs
    // Armed first: an answer given while the end is sent clears it.
    utterance.timer = setTimeout(
      () => this.failConnection(connection, this.timeoutError(timeoutMs)),
      timeoutMs
    )
    this.sendEnd(connection, utterance)
  }

  /** Records an utterance's transcript and emits what is next in order; false if it was finished. */
  private recordTranscript(utterance: U, text: string): boolean {
    if (!this.isWaiting(utterance)) return false
    clearTimeout(utterance.timer)
    utterance.transcript = text
    this.emitInOrder()
    return true
  }

  /** Emits the transcripts at the head of the queue: each one waits for those before it. */
  private emitInOrder(): void {
    let head = this.utterances.head
    while (head?.transcript !== undefined) {
      const text = head.transcript
      this.utterances.finish(head, () => {
        this.log(`Transcript: "${text}"`)
        this.emitFinalTranscript(text)
      })
      head = this.utterances.head
    }
  }

  /** Emits an utterance's `Failed` at once. */
  private emitFailed(utterance: U, error: Error): void {
    this.utterances.finish(utterance, () => {
      this.log('Failed:', error.message)
      this.emit('Failed', error)
    })
  }

  /** Nothing was said: an empty transcript, without a request (in order, as any transcript). */
  private finishSilent(): void {
    for (const utterance of this.utterances.silent()) this.recordTranscript(utterance, '')
  }
}

function ignore(): void {}

/** The connection as a {@link StreamingWire}; a clear error when it is not one. */
function wireOf(connection: StreamingConnection): StreamingWire {
  const wire = connection as Partial<StreamingWire>
  if (typeof wire.sendAudio === 'function' && typeof wire.sendEnd === 'function') {
    return wire as StreamingWire
  }
  throw new TypeError(
    'StreamingSTT: the connection has no sendAudio() and sendEnd(): override them in the STT'
  )
}

/** An utterance with no outcome yet (its transcript may be held, waiting for earlier ones). */
function unanswered(utterance: StreamingUtterance): boolean {
  return utterance.transcript === undefined
}

/** An utterance with something to send: audio, or its end. */
function needsWire(utterance: StreamingUtterance): boolean {
  return (
    unanswered(utterance) && !utterance.endSent && (utterance.queue.length > 0 || utterance.ended)
  )
}
