// A client of the call's WebSocket that behaves as the browser's does in time: it streams the
// user's speech at real-time pace, plays the answer's audio in real time (a queue drained at
// 16 kHz, no jitter buffer), reports how far it played (`Played`, with `reportsPlaybackEnd`) and
// takes the assistant's `Message` once it was heard to its end (`captions`), which ends the turn.
import { setTimeout as sleep } from 'node:timers/promises'
import {
  audioMs,
  encodeClientHello,
  encodePlayed,
  type MicdropTurnMetrics,
} from '@openmic/core/protocol'
import WebSocket from 'ws'

const CHUNK_BYTES = 3200 // 100 ms of PCM16 16 kHz
/** A turn whose answer is not heard within this time is given up (and counted as such). */
const TURN_TIMEOUT_MS = 15_000

export interface HeardTurn {
  /** When StopSpeaking was sent (performance.now() clock). */
  stoppedAt: number
  /** StopSpeaking → the first answer audio frame at the client (it plays on arrival). */
  firstAudioMs: number
  /** Time the playback stood still, waiting for audio, after its first frame. */
  stallMs: number
  /** StartSpeaking → the answer heard to its end. */
  turnMs: number
  metrics: MicdropTurnMetrics
}

export class PlayingClient {
  private readonly socket: WebSocket
  /** Assistant audio received on this connection, in ms (what `Played` counts). */
  private receivedMs = 0
  /** When the queued audio will have played (performance.now() clock); 0: nothing queued yet. */
  private playEndAt = 0
  private stallMs = 0
  private firstAudioAt?: number
  private playedTimer?: NodeJS.Timeout
  private onHeard?: () => void
  private onMetrics?: (metrics: MicdropTurnMetrics) => void

  private constructor(socket: WebSocket) {
    this.socket = socket
    socket.on('message', (data, isBinary) => {
      if (isBinary) return this.play(data as Buffer)
      const text = data.toString()
      if (text.startsWith('Message {"role":"assistant"')) this.onHeard?.()
      else if (text.startsWith('Metrics ')) {
        this.onMetrics?.(JSON.parse(text.slice('Metrics '.length)) as MicdropTurnMetrics)
      }
    })
  }

  static async connect(url: string): Promise<PlayingClient> {
    const socket = new WebSocket(url)
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    socket.send(encodeClientHello({ captions: true, reportsPlaybackEnd: true }))
    return new PlayingClient(socket)
  }

  /** One turn: `speech` streamed in real time, then the answer played to its end. */
  async turn(speech: Buffer): Promise<HeardTurn | undefined> {
    const startedAt = performance.now()
    this.firstAudioAt = undefined
    this.stallMs = 0
    const metrics = new Promise<MicdropTurnMetrics>((resolve) => (this.onMetrics = resolve))
    const heard = new Promise<void>((resolve) => (this.onHeard = resolve))
    this.socket.send('StartSpeaking')
    for (let offset = 0; offset < speech.length; offset += CHUNK_BYTES) {
      this.socket.send(speech.subarray(offset, offset + CHUNK_BYTES))
      await sleep(100)
    }
    const stoppedAt = performance.now()
    this.socket.send('StopSpeaking')
    const ended = await Promise.race([heard.then(() => true), sleep(TURN_TIMEOUT_MS)])
    this.onHeard = undefined
    if (!ended || this.firstAudioAt === undefined) return undefined
    return {
      stoppedAt,
      firstAudioMs: this.firstAudioAt - stoppedAt,
      stallMs: this.stallMs,
      turnMs: performance.now() - startedAt,
      metrics: await metrics,
    }
  }

  close(): void {
    clearTimeout(this.playedTimer)
    this.socket.close()
  }

  private play(frame: Buffer) {
    const now = performance.now()
    this.firstAudioAt ??= now
    if (this.playEndAt !== 0 && now > this.playEndAt && this.firstAudioAt !== now) {
      this.stallMs += now - this.playEndAt
    }
    const ms = audioMs(frame.length)
    this.receivedMs += ms
    this.playEndAt = Math.max(now, this.playEndAt) + ms
    clearTimeout(this.playedTimer)
    this.playedTimer = setTimeout(() => this.playbackRanOut(), this.playEndAt - now)
  }

  /** Everything received was played: tell the server (it may end the answer on it). */
  private playbackRanOut() {
    this.socket.send(encodePlayed({ ms: Math.round(this.receivedMs) }))
  }
}
