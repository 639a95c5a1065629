import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import { FakeConversation, type FakeConversationHost } from './FakeConversation.js'
import type { FakeRealtimeConnectionRecord, FakeTranscriptionStep } from './types.js'
import {
  clearedEvent,
  committedEvent,
  completedEvent,
  defaultRealtimeSession,
  defaultTranscriptionSession,
  deltaEvent,
  errorEvent,
  failedEvent,
  sessionEvent,
} from './wire-events.js'

/** PCM16 mono at 24 kHz: bytes per millisecond. */
const BYTES_PER_MS = 48

/** What a connection needs from its server (a conversation session's responses too). */
export interface RealtimeConnectionHost extends Pick<
  FakeConversationHost,
  'nextResponse' | 'recordResponse' | 'newId'
> {
  /** The next scripted transcription (one per commit, whatever the connection). */
  nextScript(): FakeTranscriptionStep[] | undefined
  /** Records a commit; returns the item id given to it. */
  commit(audio: Buffer): string
  /** Records appended audio, in order over all connections. */
  appended(audio: Buffer): void
  /** Shortest audio a commit accepts, in ms (the real API refuses less than 100 ms). */
  minCommitMs: number
  /** Transcription models a `session.update` may name. */
  models: readonly string[]
}

/** One accepted WebSocket: speaks the transcription protocol and plays the scripts. */
export class RealtimeConnection {
  private buffer: Buffer[] = []
  private session: Record<string, any>
  /** A conversation session's items and responses (none for transcription). */
  readonly conversation?: FakeConversation
  private lastItemId: string | null = null
  private readonly timers = new Set<NodeJS.Timeout>()

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
    readonly record: FakeRealtimeConnectionRecord,
    private readonly intent: string | null,
    private readonly host: RealtimeConnectionHost,
    model: string | null = null
  ) {
    if (intent === 'transcription') this.session = defaultTranscriptionSession()
    else {
      this.session = defaultRealtimeSession(model)
      this.conversation = new FakeConversation({
        send: (event) => this.send(event),
        close: (code, reason) => this.close(code, reason),
        reset: () => this.reset(),
        nextResponse: () => host.nextResponse(),
        recordResponse: (response) => host.recordResponse(response),
        newId: (prefix) => host.newId(prefix),
      })
    }
    ws.on('message', (data, isBinary) => this.receive(data.toString(), isBinary))
    ws.on('close', () => this.stop())
    ws.on('error', () => this.stop())
    this.send(sessionEvent('session.created', this.session))
  }

  /** Closes with a close handshake. */
  close(code = 1000, reason = ''): void {
    if (this.record.closed) return
    this.ws.close(code, reason)
  }

  /** Cuts the TCP connection (the client sees no close frame). */
  reset(): void {
    this.stop()
    const socket = this.socket as Duplex & { resetAndDestroy?: () => void }
    if (socket.resetAndDestroy) socket.resetAndDestroy()
    else socket.destroy()
  }

  private stop(): void {
    this.record.closed = true
    this.conversation?.stop()
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
  }

  private send(event: unknown): void {
    if (this.record.closed || this.ws.readyState !== this.ws.OPEN) return
    this.ws.send(typeof event === 'string' ? event : JSON.stringify(event))
  }

  private receive(text: string, isBinary: boolean): void {
    let event: any
    try {
      event = JSON.parse(text)
    } catch {
      this.record.events.push(text)
      const what = isBinary ? 'Binary frames are not supported' : 'Invalid JSON'
      this.send(errorEvent(`${what}: send JSON client events.`))
      return
    }
    this.record.events.push(event)
    const clientEventId = typeof event?.event_id === 'string' ? event.event_id : null
    switch (event?.type) {
      case 'session.update':
        return this.updateSession(event.session, clientEventId)
      case 'input_audio_buffer.append': {
        if (typeof event.audio !== 'string') {
          return this.send(errorEvent("Missing required parameter: 'audio'.", { clientEventId }))
        }
        const audio = Buffer.from(event.audio, 'base64')
        this.buffer.push(audio)
        this.host.appended(audio)
        return
      }
      case 'input_audio_buffer.commit':
        return this.commit(clientEventId)
      case 'input_audio_buffer.clear':
        this.buffer = []
        return this.send(clearedEvent())
      default:
        // A conversation session's own events (a transcription session knows none of them)
        if (this.conversation?.handle(event, clientEventId)) return
        return this.send(
          errorEvent(`Invalid value: '${String(event?.type)}'.`, {
            code: 'invalid_value',
            clientEventId,
          })
        )
    }
  }

  private updateSession(session: any, clientEventId: string | null): void {
    this.record.sessionUpdates.push(session)
    if (session?.type === 'transcription' && this.intent !== 'transcription') {
      // What the real API says when the URL opened a conversation session instead.
      return this.send(
        errorEvent(
          'Passing a transcription session update event to a realtime session is not allowed.',
          { code: 'invalid_request_error', clientEventId }
        )
      )
    }
    const model = session?.audio?.input?.transcription?.model
    if (model !== undefined && !this.host.models.includes(model)) {
      return this.send(
        errorEvent(
          `Invalid value: '${String(model)}'. Supported values are: ${this.host.models.map((m) => `'${m}'`).join(', ')}.`,
          { code: 'invalid_value', clientEventId }
        )
      )
    }
    this.session = { ...this.session, ...session }
    this.send(sessionEvent('session.updated', this.session))
  }

  private commit(clientEventId: string | null): void {
    const audio = Buffer.concat(this.buffer)
    this.buffer = []
    const ms = audio.length / BYTES_PER_MS
    if (ms < this.host.minCommitMs) {
      return this.send(
        errorEvent(
          `Error committing input audio buffer: buffer too small. Expected at least ${this.host.minCommitMs}ms of audio, but buffer only has ${ms.toFixed(2)}ms of audio.`,
          { code: 'input_audio_buffer_commit_empty', clientEventId }
        )
      )
    }
    const itemId = this.host.commit(audio)
    // In a conversation, the item follows the last one of the conversation (whoever made it)
    const previous = this.conversation
      ? (this.conversation.items.at(-1)?.id ?? null)
      : this.lastItemId
    this.conversation?.addUserAudio(itemId, ms)
    this.send(committedEvent(itemId, previous))
    this.lastItemId = itemId
    // A conversation session transcribes only when its session asks for it
    if (this.conversation && !this.session.audio?.input?.transcription) return
    const script = this.host.nextScript()
    if (!script) {
      this.send(
        errorEvent('Fake server: no scripted transcription left for this commit.', {
          code: 'fake_server_no_script',
          type: 'server_error',
        })
      )
      return
    }
    this.play(script, itemId, ms / 1000)
  }

  private play(steps: FakeTranscriptionStep[], itemId: string, seconds: number): void {
    const step = steps[0]
    if (!step || this.record.closed) return
    const rest = steps.slice(1)
    if (step.type === 'delay') {
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        this.play(rest, itemId, seconds)
      }, step.ms)
      this.timers.add(timer)
      return
    }
    switch (step.type) {
      case 'delta':
        this.send(deltaEvent(itemId, step.delta))
        break
      case 'completed':
        this.conversation?.transcribed(itemId, step.transcript)
        this.send(completedEvent(itemId, step.transcript, seconds))
        break
      case 'failed':
        this.send(failedEvent(itemId, step.message ?? 'Transcription failed.', step.code))
        break
      case 'error':
        this.send(errorEvent(step.message, { code: step.code, type: step.errorType }))
        break
      case 'event':
        this.send(step.data)
        break
      case 'close':
        return this.close(step.code, step.reason)
      case 'reset':
        return this.reset()
    }
    this.play(rest, itemId, seconds)
  }
}
