import { STT } from '@openmic/core'
import type { Readable } from 'node:stream'
import type { RealtimeError, RealtimeServerEvent } from 'openai/resources/realtime/realtime'
import { OPENAI_STT_DEFAULTS, type OpenaiSTTOptions } from './options.js'
import { OpenaiSTTError } from './OpenaiSTTError.js'
import { transcriptionURL } from './realtime-url.js'
import { openRealtimeSocket, type RealtimeSocket } from './RealtimeSocket.js'
import { transcriptionSessionUpdate } from './session-update.js'
import { Utterance } from './Utterance.js'

/** The API refuses to commit less than 100 ms of audio: 2400 samples of PCM16 at 24 kHz. */
const MIN_COMMIT_BYTES = 4800

/**
 * Speech-to-text with OpenAI's realtime transcription (`gpt-4o-transcribe` by default), over a
 * WebSocket to `/v1/realtime?intent=transcription`.
 *
 * - The connection opens when the instance is created, so the first utterance does not wait for
 *   a handshake. Audio (PCM16 16 kHz) is resampled to 24 kHz and sent as it arrives; the end of
 *   the stream commits the utterance. An utterance with no audio (or under the API's 100 ms
 *   minimum) gives `Transcript('')` at once, without a request.
 * - Deltas become `Partial` (the utterance's text so far); the final text becomes `Transcript`.
 * - Any error becomes `Failed` at once, with an {@link OpenaiSTTError} naming the status or the
 *   API's code: a refused connection (`OpenaiSTT: HTTP 401 ...`), an in-band `error` event, a failed
 *   transcription, a connection that closes or resets mid-utterance, no connection within
 *   `connectionTimeoutMs`, no transcript within `transcriptionTimeoutMs` of the end of speech.
 * - After any close (code 1000 included) the next utterance opens a new connection. No audio is
 *   ever sent twice: what was sent on a connection that died is not replayed.
 * - Utterances run one after the other on the connection; one that starts while the previous one
 *   still streams waits (held in memory) until that one is committed. Transcripts are emitted
 *   in the order of the utterances; a `Failed` is emitted as soon as it is known.
 * - `destroy()` closes the connection and clears every timer; nothing is emitted afterwards.
 *
 * @example
 * const stt = new OpenaiSTT({ apiKey: process.env.OPENAI_API_KEY, language: 'fr' })
 * stt.on('Partial', (text) => console.log('…', text))
 * stt.on('Transcript', (text) => console.log('>', text))
 * stt.on('Failed', (error) => console.error(error))
 * stt.transcribe(utteranceAudio) // a Readable of PCM16 16 kHz mono that ends with the utterance
 */
export class OpenaiSTT extends STT {
  /** `openai`, the provider, for tracing. */
  override get providerName(): string {
    return 'openai'
  }

  private readonly url: string
  private readonly apiKey: string
  private readonly settings: Required<Omit<OpenaiSTTOptions, 'apiKey' | 'baseURL'>>
  private socket: RealtimeSocket | undefined
  /** Utterances not done yet, in order (committed ones stay until their transcription comes). */
  private utterances: Utterance[] = []
  /** Utterances whose outcome is not emitted yet, in order. */
  private outcomes: Utterance[] = []
  private count = 0
  private connections = 0
  private destroyed = false

  constructor(options: OpenaiSTTOptions = {}) {
    super()
    const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY
    if (!apiKey) {
      throw new OpenaiSTTError('no API key: pass `apiKey` or set OPENAI_API_KEY')
    }
    this.apiKey = apiKey
    const defaults = OPENAI_STT_DEFAULTS
    this.url = transcriptionURL(options.baseURL ?? process.env.OPENAI_BASE_URL ?? defaults.baseURL)
    this.settings = {
      model: options.model ?? defaults.model,
      language: options.language ?? defaults.language,
      prompt: options.prompt ?? defaults.prompt,
      connectionTimeoutMs: options.connectionTimeoutMs ?? defaults.connectionTimeoutMs,
      transcriptionTimeoutMs: options.transcriptionTimeoutMs ?? defaults.transcriptionTimeoutMs,
    }
    // Opened now, so the first utterance finds it ready.
    this.socket = this.connect()
  }

  /** Each utterance's text comes whole, followed by `TranscriptEnd`. */
  override get signalsTranscriptEnd(): boolean {
    return true
  }

  transcribe(audio: Readable): void {
    if (this.destroyed) {
      audio.resume()
      return
    }
    if (!this.socket || this.socket.isOver) this.socket = this.connect()
    const utterance = new Utterance(`openmic_commit_${++this.count}`, this.socket)
    this.utterances.push(utterance)
    this.outcomes.push(utterance)
    const onData = (chunk: Buffer) => {
      if (utterance.settled) return
      const out = utterance.resampler.write(chunk)
      if (out.length > 0) utterance.held.push(out)
      this.pump()
    }
    const onEnd = () => {
      if (utterance.settled) return
      utterance.ended = true
      const tail = utterance.resampler.end()
      if (tail.length > 0) utterance.held.push(tail)
      this.pump()
    }
    const onError = (error: Error) => {
      this.fail(utterance, new OpenaiSTTError(`the audio stream failed: ${error.message}`))
    }
    audio.on('error', onError)
    if (audio.readableEnded) {
      onEnd()
      return
    }
    audio.on('data', onData)
    audio.once('end', onEnd)
    // The error listener stays: a stream that fails later must not throw an unhandled error.
    utterance.detach = () => {
      audio.off('data', onData)
      audio.off('end', onEnd)
    }
  }

  override destroy(): void {
    this.destroyed = true
    for (const utterance of this.utterances) {
      utterance.clearTimer()
      utterance.detach()
      // An earlier connection may still be closing with an utterance on it.
      utterance.socket.dispose()
    }
    this.utterances = []
    this.outcomes = []
    this.socket?.dispose()
    this.socket = undefined
    super.destroy()
  }

  private connect(): RealtimeSocket {
    const sessionEventId = `openmic_session_${++this.connections}`
    const socket: RealtimeSocket = openRealtimeSocket({
      url: this.url,
      apiKey: this.apiKey,
      connectionTimeoutMs: this.settings.connectionTimeoutMs,
      firstEvent: transcriptionSessionUpdate(sessionEventId, this.settings),
      onEvent: (event) => this.handle(socket, sessionEventId, event),
      onEnd: (error) => this.ended(socket, error),
      log: (...message) => this.log(...message),
    })
    return socket
  }

  /**
   * Sends what can be sent: the first utterance still streaming owns the input buffer; once its
   * audio has ended it is committed, and the next one's held audio goes out.
   */
  private pump(): void {
    for (const utterance of [...this.utterances]) {
      // One on a connection that just ended is about to fail: it holds nobody back.
      if (utterance.state !== 'streaming' || utterance.socket.isOver) continue
      for (const chunk of utterance.held.splice(0)) {
        utterance.socket.send({
          type: 'input_audio_buffer.append',
          audio: chunk.toString('base64'),
        })
        utterance.sentBytes += chunk.length
      }
      if (!utterance.ended) return
      this.commit(utterance)
    }
  }

  private commit(utterance: Utterance): void {
    utterance.detach()
    if (utterance.sentBytes < MIN_COMMIT_BYTES) {
      // Nothing (or too little) was said: the API would refuse the commit.
      if (utterance.sentBytes > 0) utterance.socket.send({ type: 'input_audio_buffer.clear' })
      this.settle(utterance, '')
      return
    }
    utterance.socket.send({ type: 'input_audio_buffer.commit', event_id: utterance.commitEventId })
    utterance.state = 'committed'
    const timeoutMs = this.settings.transcriptionTimeoutMs
    utterance.timer = setTimeout(() => {
      this.fail(
        utterance,
        new OpenaiSTTError(`no transcript within ${timeoutMs} ms of the end of the utterance`)
      )
    }, timeoutMs)
  }

  private handle(socket: RealtimeSocket, sessionEventId: string, event: RealtimeServerEvent) {
    if (this.destroyed) return
    switch (event.type) {
      case 'input_audio_buffer.committed': {
        const utterance = this.awaiting(socket)
        if (utterance) utterance.itemId = event.item_id
        return
      }
      case 'conversation.item.input_audio_transcription.delta': {
        const utterance = this.forItem(socket, event.item_id)
        if (!utterance || utterance.settled || !event.delta) return
        utterance.text += event.delta
        this.emit('Partial', utterance.text)
        return
      }
      case 'conversation.item.input_audio_transcription.completed': {
        const utterance = this.forItem(socket, event.item_id)
        if (utterance) this.settle(utterance, event.transcript ?? '')
        return
      }
      case 'conversation.item.input_audio_transcription.failed': {
        const utterance = this.forItem(socket, event.item_id)
        if (!utterance) return
        const { message, code, type } = event.error ?? {}
        const error = new OpenaiSTTError(`transcription failed: ${message ?? 'no reason given'}`, {
          code,
          type,
        })
        this.fail(utterance, error)
        utterance.state = 'done'
        this.prune()
        return
      }
      case 'error':
        return this.inBandError(socket, sessionEventId, event.error)
      default:
        return
    }
  }

  /** An `error` event: fails the utterance it is about, at once. */
  private inBandError(socket: RealtimeSocket, sessionEventId: string, details: RealtimeError) {
    const message = details?.message ?? 'unknown error'
    const error = new OpenaiSTTError(message, { code: details?.code, type: details?.type })
    this.log('Error event:', message)
    if (details?.event_id && details.event_id === sessionEventId) {
      // The session was not configured: every utterance on it would fail or be transcribed
      // wrongly. End the connection (the next utterance opens a new one).
      const refused = `session.update refused: ${message}`
      socket.end(new OpenaiSTTError(refused, { code: details?.code, type: details?.type }))
      return
    }
    const byCommit = this.utterances.find(
      (u) => u.socket === socket && details?.event_id === u.commitEventId
    )
    const target = byCommit ?? this.utterances.find((u) => u.socket === socket && !u.settled)
    if (!target) return
    this.fail(target, error)
    // A refused commit makes no item: nothing more will come for it.
    if (byCommit) target.state = 'done'
    this.prune()
  }

  /** The socket is over: every utterance still on it fails. */
  private ended(socket: RealtimeSocket, error: OpenaiSTTError): void {
    this.log(error.message)
    if (this.socket === socket) this.socket = undefined
    if (this.destroyed) return
    for (const utterance of this.utterances) {
      if (utterance.socket !== socket) continue
      this.fail(utterance, error)
      utterance.state = 'done'
    }
    this.prune()
    this.pump()
  }

  /** The oldest committed utterance of this socket whose item is not known yet. */
  private awaiting(socket: RealtimeSocket): Utterance | undefined {
    return this.utterances.find(
      (u) => u.socket === socket && u.state === 'committed' && u.itemId === undefined
    )
  }

  /** The utterance of an item (the oldest one awaiting its item if no `committed` named it). */
  private forItem(socket: RealtimeSocket, itemId: string): Utterance | undefined {
    const known = this.utterances.find((u) => u.socket === socket && u.itemId === itemId)
    if (known) return known
    const next = this.awaiting(socket)
    if (next) next.itemId = itemId
    return next
  }

  /** Emits an utterance's transcript, once every earlier utterance has its outcome. */
  private settle(utterance: Utterance, transcript: string): void {
    utterance.state = 'done'
    this.prune()
    if (utterance.settled) return
    utterance.settled = true
    utterance.clearTimer()
    utterance.transcript = transcript
    this.release()
  }

  /** Emits the transcripts that no earlier utterance holds back any more. */
  private release(): void {
    while (this.outcomes.length > 0 && this.outcomes[0]!.settled) {
      const { transcript } = this.outcomes.shift()!
      if (transcript === undefined || this.destroyed) continue
      this.log(`Transcript: "${transcript}"`)
      this.emitFinalTranscript(transcript)
    }
  }

  /**
   * Emits `Failed` for an utterance (once). One that was committed stays in the list until its
   * transcription comes, so that text is not taken for the next utterance's.
   */
  private fail(utterance: Utterance, error: OpenaiSTTError): void {
    if (utterance.settled || this.destroyed) return
    utterance.settled = true
    utterance.clearTimer()
    utterance.detach()
    if (utterance.state === 'streaming') {
      // Drop the audio it already sent, so it is not committed with the next utterance's.
      if (utterance.sentBytes > 0) utterance.socket.send({ type: 'input_audio_buffer.clear' })
      utterance.held.length = 0
      utterance.state = 'done'
    }
    // A failure is told at once (a fallback can take over); later transcripts may now go.
    this.log('Failed:', error.message)
    this.emit('Failed', error)
    this.release()
    this.prune()
    this.pump()
  }

  private prune(): void {
    this.utterances = this.utterances.filter((u) => u.state !== 'done')
  }
}
