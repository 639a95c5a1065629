import {
  RealtimeInput,
  RealtimeModel,
  RealtimeResponse,
  type MicdropConversationItem,
  type ModelUsage,
  type RealtimeRespondOptions,
  type RealtimeResponseEnd,
  type RealtimeSessionConfig,
} from '@openmic/core'
import { MICDROP_AUDIO_FORMAT, Resampler } from '@openmic/core/provider'
import type {
  RealtimeClientEvent,
  RealtimeError,
  RealtimeResponseCreateParams,
  RealtimeResponseUsage,
  RealtimeServerEvent,
} from 'openai/resources/realtime/realtime'
import { REALTIME_SAMPLE_RATE } from '../stt/session-update.js'
import { toRealtimeItem } from './convert-item.js'
import { realtimeSessionURL } from './endpoint.js'
import { OpenaiRealtimeError } from './errors.js'
import { OpenaiRealtimeConnection } from './realtime-connection.js'
import { OPENAI_REALTIME_DEFAULTS, type OpenaiRealtimeOptions } from './options.js'
import { OutputAudio } from './output-audio.js'
import { realtimeSessionUpdate, type RealtimeSessionSettings } from './session-update.js'

/** The API refuses to commit less than 100 ms of audio: 2400 samples of PCM16 at 24 kHz. */
const MIN_COMMIT_BYTES = 4800
/** After `response.cancel`, how long the API may take to end the response before it is let go. */
const CANCEL_CONFIRM_MS = 2000
/** What the model is told for a text it must say word for word (out of the conversation). */
const SAY_INSTRUCTIONS =
  "Read the user's message aloud exactly as it is written, word for word, in its language. " +
  'Add nothing, leave nothing out, do not answer it.'

/** A response asked for: waiting its turn, or sent. */
interface Pending {
  response: RealtimeResponse
  /** The `event_id` of its `response.create` (also its `metadata.openmic_response`). */
  eventId: string
  body: RealtimeResponseCreateParams
  sent: boolean
  /** The API's id, once `response.created` came. */
  id?: string
  cancelTimer?: NodeJS.Timeout
}

/**
 * OpenAI's Realtime API (GA) as a speech-to-speech model for {@link RealtimeAgent}: one
 * WebSocket session to `/v1/realtime?model=...` (`gpt-realtime` by default), through `ws` and
 * core's `JsonSocket` (the official SDK's `openai/realtime/ws` client always connects with TLS,
 * so it cannot reach a local server, and it reads neither a refused handshake's body nor a
 * connection timeout).
 *
 * - The session is configured with `session.update`: the system prompt as instructions, core's
 *   tools as functions, PCM16 at 24 kHz in and out (openmic's 16 kHz resampled both ways),
 *   the user's audio transcribed (`transcriptionModel`), and no turn detection: the call commits
 *   each utterance and asks for each response.
 * - One response at a time, as the API allows: a response asked for while another is active is
 *   sent once that one is done. `say()` is an out-of-band response (`conversation: 'none'`).
 * - Failures are {@link OpenaiRealtimeError}s: a refused handshake (`OpenaiRealtime: HTTP 401
 *   ...`), a rejected `session.update`, or a dropped connection end the session (`Failed`; the
 *   next call opens a new one); a refused or failed response ends `failed`; a refused commit or
 *   a failed transcription fails its input.
 *
 * @example
 * const agent = new RealtimeAgent({
 *   model: new OpenaiRealtime({ apiKey: process.env.OPENAI_API_KEY, voice: 'marin' }),
 *   systemPrompt: 'You are a friendly assistant.',
 * })
 * new MicdropServer(socket, { realtime: agent })
 */
export class OpenaiRealtime extends RealtimeModel {
  private readonly url: string
  private readonly apiKey: string
  private readonly settings: RealtimeSessionSettings
  private readonly connectionTimeoutMs: number
  private socket?: OpenaiRealtimeConnection
  private connections = 0
  private config?: RealtimeSessionConfig
  /** The session (JSON) the open socket was sent last. */
  private sentSession?: string
  private sessionEventId?: string
  private toModel = newInputResampler()
  /** Bytes of 24 kHz audio appended since the last commit. */
  private appended = 0
  /** Commits awaiting `input_audio_buffer.committed`, in order, by `event_id` too. */
  private commits: Array<{ eventId: string; input: RealtimeInput }> = []
  /** Committed inputs awaiting their transcript, by item id. */
  private readonly inputs = new Map<string, RealtimeInput>()
  /** Responses asked for: the first one is the one sent (at most one is). */
  private queue: Pending[] = []
  private readonly output = new OutputAudio()
  private count = 0
  private destroyed = false

  constructor(options: OpenaiRealtimeOptions = {}) {
    super()
    const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY
    if (!apiKey) {
      throw new OpenaiRealtimeError('no API key: pass `apiKey` or set OPENAI_API_KEY')
    }
    this.apiKey = apiKey
    const defaults = OPENAI_REALTIME_DEFAULTS
    this.settings = {
      model: options.model ?? defaults.model,
      voice: options.voice ?? defaults.voice,
      speed: options.speed,
      transcriptionModel: options.transcriptionModel ?? defaults.transcriptionModel,
      language: options.language ?? defaults.language,
      noiseReduction:
        options.noiseReduction === undefined ? defaults.noiseReduction : options.noiseReduction,
      session: options.session,
    }
    const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL ?? defaults.baseURL
    this.url = realtimeSessionURL(baseURL, this.settings.model)
    this.connectionTimeoutMs = options.connectionTimeoutMs ?? defaults.connectionTimeoutMs
  }

  /** `openai`, as OpenTelemetry's GenAI conventions name the provider (for tracing). */
  override get providerName(): string {
    return 'openai'
  }

  get session(): string {
    return this.connections === 0 ? '' : `openai-realtime-${this.connections}`
  }

  configure(config: RealtimeSessionConfig): void {
    this.config = config
    const socket = this.open()
    const update = this.sessionUpdate()
    if (socket && JSON.stringify(update.session) !== this.sentSession) this.sendSession(update)
  }

  appendAudio(audio: Buffer): void {
    this.append(this.toModel.write(audio))
  }

  commitAudio(): RealtimeInput {
    this.append(this.toModel.end())
    this.toModel = newInputResampler()
    const input = new RealtimeInput()
    const bytes = this.appended
    this.appended = 0
    if (bytes < MIN_COMMIT_BYTES) {
      // Nothing (or too little) was said: the API would refuse the commit
      if (bytes > 0) this.send({ type: 'input_audio_buffer.clear' }, false)
      setImmediate(() => input.transcribed(''))
      return input
    }
    const eventId = this.nextId('commit')
    this.commits.push({ eventId, input })
    this.send({ type: 'input_audio_buffer.commit', event_id: eventId })
    return input
  }

  clearAudio(): void {
    this.toModel = newInputResampler()
    this.appended = 0
    this.send({ type: 'input_audio_buffer.clear' }, false)
  }

  respond(options: RealtimeRespondOptions = {}): RealtimeResponse {
    return this.ask(
      new RealtimeResponse(this),
      options.tools === false ? { tool_choice: 'none' } : {}
    )
  }

  say(text: string): RealtimeResponse {
    return this.ask(new RealtimeResponse(this, false), {
      conversation: 'none',
      output_modalities: ['audio'],
      instructions: SAY_INSTRUCTIONS,
      tool_choice: 'none',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }],
    })
  }

  cancelResponse(response: RealtimeResponse): void {
    const pending = this.queue.find((known) => known.response === response)
    if (!pending || pending.cancelTimer) return
    if (!pending.sent) {
      this.queue.splice(this.queue.indexOf(pending), 1)
      setImmediate(() => response.finish({ status: 'cancelled' }))
      return
    }
    this.send(
      {
        type: 'response.cancel',
        event_id: this.nextId('cancel'),
        ...(pending.id ? { response_id: pending.id } : {}),
      },
      false
    )
    // The API ends it with `response.done`; one that never says so is let go
    pending.cancelTimer = setTimeout(
      () => this.done(pending, { status: 'cancelled' }),
      CANCEL_CONFIRM_MS
    )
  }

  createItem(item: MicdropConversationItem, placement: { id: string; after?: string | null }) {
    const after = placement.after === null ? 'root' : placement.after
    this.send(
      {
        type: 'conversation.item.create',
        event_id: this.nextId('item'),
        ...(after !== undefined ? { previous_item_id: after } : {}),
        item: toRealtimeItem(item, placement.id),
      },
      false
    )
  }

  deleteItem(id: string): void {
    const event_id = this.nextId('delete')
    this.send({ type: 'conversation.item.delete', event_id, item_id: id }, false)
  }

  truncateItem(id: string, audioEndMs: number): void {
    // Never past the audio that came: the API refuses that
    const endMs = Math.max(0, Math.min(Math.floor(audioEndMs), Math.floor(this.output.ms(id))))
    this.send(
      {
        type: 'conversation.item.truncate',
        event_id: this.nextId('truncate'),
        item_id: id,
        content_index: 0,
        audio_end_ms: endMs,
      },
      false
    )
  }

  override destroy(): void {
    this.destroyed = true
    for (const pending of this.queue) clearTimeout(pending.cancelTimer)
    this.queue = []
    this.commits = []
    this.inputs.clear()
    this.socket?.dispose()
    this.socket = undefined
    super.destroy()
  }

  // ---- the connection ----

  /** The socket in use, opened (with the session) if there is none; none once destroyed. */
  private open(): OpenaiRealtimeConnection | undefined {
    if (this.destroyed) return undefined
    if (this.socket && !this.socket.isOver) return this.socket
    this.connections++
    this.output.clear()
    const update = this.sessionUpdate()
    this.sentSession = JSON.stringify(update.session)
    this.sessionEventId = update.event_id
    const socket: OpenaiRealtimeConnection = new OpenaiRealtimeConnection(
      {
        url: this.url,
        apiKey: this.apiKey,
        connectionTimeoutMs: this.connectionTimeoutMs,
        firstEvent: update,
      },
      {
        onMessage: (event) => this.handle(socket, event),
        onClosed: (error) => this.ended(socket, error),
        log: (...message) => this.log(...message),
      }
    )
    this.socket = socket
    return socket
  }

  private sessionUpdate() {
    return realtimeSessionUpdate(this.nextId('session'), this.config, this.settings)
  }

  private sendSession(update: ReturnType<typeof realtimeSessionUpdate>) {
    this.sentSession = JSON.stringify(update.session)
    this.sessionEventId = update.event_id
    this.send(update)
  }

  /**
   * Sends on the socket in use, opening one if needed for what starts work (audio, a commit, a
   * response). What is about the session's state (an item, a cancel) is dropped when the session
   * is over: the new one is seeded by the agent, and has no response to cancel.
   */
  private send(event: RealtimeClientEvent, open = true) {
    if (open) this.open()?.send(event)
    else if (this.socket && !this.socket.isOver) this.socket.send(event)
  }

  private append(audio: Buffer) {
    if (audio.length === 0) return
    this.appended += audio.length
    this.send({ type: 'input_audio_buffer.append', audio: audio.toString('base64') })
  }

  /** The socket is over: everything in progress on it fails, then `Failed`. */
  private ended(socket: OpenaiRealtimeConnection, error: OpenaiRealtimeError) {
    if (socket !== this.socket) return
    this.socket = undefined
    this.sentSession = undefined
    this.appended = 0
    this.toModel = newInputResampler()
    if (this.destroyed) return
    this.log(error.message)
    for (const { input } of this.commits.splice(0)) input.fail(error)
    for (const input of this.inputs.values()) input.fail(error)
    this.inputs.clear()
    for (const pending of this.queue.splice(0)) {
      clearTimeout(pending.cancelTimer)
      pending.response.finish({ status: 'failed', error })
    }
    this.emit('Failed', error)
  }

  // ---- responses ----

  private ask(response: RealtimeResponse, body: RealtimeResponseCreateParams): RealtimeResponse {
    const eventId = this.nextId('response')
    this.queue.push({
      response,
      eventId,
      body: { ...body, metadata: { openmic_response: eventId } },
      sent: false,
    })
    this.pump()
    return response
  }

  /** Sends the first response asked for, unless one is active. */
  private pump() {
    const next = this.queue[0]
    if (!next || next.sent || this.destroyed) return
    next.sent = true
    this.send({ type: 'response.create', event_id: next.eventId, response: next.body })
  }

  /** A response ended: the next one goes. */
  private done(pending: Pending, end: RealtimeResponseEnd) {
    const index = this.queue.indexOf(pending)
    if (index === -1) return
    this.queue.splice(index, 1)
    clearTimeout(pending.cancelTimer)
    pending.response.finish(end)
    this.pump()
  }

  /** The response an event is about: by the API's id, else the one sent. */
  private responseOf(id: string | undefined): Pending | undefined {
    return (
      this.queue.find((pending) => pending.id === id) ?? this.queue.find((p) => p.sent && !p.id)
    )
  }

  // ---- server events ----

  private handle(socket: OpenaiRealtimeConnection, event: RealtimeServerEvent): void {
    if (socket !== this.socket || this.destroyed) return
    switch (event.type) {
      case 'input_audio_buffer.committed': {
        const commit = this.commits.shift()
        if (!commit) return
        commit.input.committed(event.item_id)
        this.inputs.set(event.item_id, commit.input)
        return
      }
      case 'conversation.item.input_audio_transcription.completed': {
        const input = this.inputs.get(event.item_id)
        this.inputs.delete(event.item_id)
        input?.transcribed(event.transcript ?? '')
        return
      }
      case 'conversation.item.input_audio_transcription.failed': {
        const input = this.inputs.get(event.item_id)
        this.inputs.delete(event.item_id)
        const { message, code, type } = event.error ?? {}
        const why = `transcription failed: ${message ?? 'no reason given'}`
        input?.fail(new OpenaiRealtimeError(why, { code: code ?? undefined, type }))
        return
      }
      case 'response.created': {
        const tag = (event.response.metadata as Record<string, string> | null)?.openmic_response
        const pending =
          this.queue.find((known) => known.eventId === tag) ??
          this.queue.find((known) => known.sent && !known.id)
        if (pending && event.response.id) pending.id = event.response.id
        return
      }
      case 'response.output_item.added': {
        const { item } = event
        if (!item.id || (item.type !== 'message' && item.type !== 'function_call')) return
        this.responseOf(event.response_id)?.response.output({
          type: 'item',
          itemId: item.id,
          kind: item.type,
        })
        return
      }
      case 'response.output_audio.delta': {
        const audio = this.output.write(event.item_id, Buffer.from(event.delta, 'base64'))
        return this.speech(event.response_id, event.item_id, audio)
      }
      case 'response.output_audio.done':
        // The resampler's tail
        return this.speech(event.response_id, event.item_id, this.output.end(event.item_id))
      case 'response.output_audio_transcript.delta':
        if (!event.delta) return
        this.responseOf(event.response_id)?.response.output({
          type: 'transcript',
          itemId: event.item_id,
          delta: event.delta,
        })
        return
      case 'response.function_call_arguments.done':
        this.responseOf(event.response_id)?.response.output({
          type: 'function-call',
          itemId: event.item_id,
          callId: event.call_id,
          name: event.name,
          arguments: event.arguments,
        })
        return
      case 'response.done': {
        const pending = this.responseOf(event.response.id)
        if (pending) this.done(pending, endOf(event.response))
        return
      }
      case 'error':
        return this.inBandError(socket, event.error)
      default:
        return
    }
  }

  /** Speech of a response's item, at 16 kHz. */
  private speech(responseId: string, itemId: string, audio: Buffer) {
    if (audio.length === 0) return
    this.responseOf(responseId)?.response.output({ type: 'audio', itemId, audio })
  }

  /** An `error` event: what it is about fails (the session, a response, a commit), or it is logged. */
  private inBandError(socket: OpenaiRealtimeConnection, details: RealtimeError) {
    const message = details?.message ?? 'unknown error'
    const code = details?.code ?? undefined
    const error = new OpenaiRealtimeError(message, {
      code,
      type: details?.type,
      // A request the API refused fails the same way again; anything else may pass
      retryable: details?.type !== 'invalid_request_error',
    })
    const about = details?.event_id ?? undefined
    if (about !== undefined && about === this.sessionEventId) {
      // Not configured: every answer would be wrong. The next call opens a new session.
      socket.end(
        new OpenaiRealtimeError(`session.update refused: ${message}`, {
          code,
          type: details?.type,
        })
      )
      return
    }
    const refused = this.queue.find((pending) => pending.eventId === about)
    if (refused) return this.done(refused, { status: 'failed', error })
    const commit = this.commits.find((known) => known.eventId === about)
    if (commit) {
      this.commits.splice(this.commits.indexOf(commit), 1)
      return commit.input.fail(error)
    }
    if (about === undefined) {
      // About nothing it names: the response in progress cannot be trusted
      const active = this.queue.find((pending) => pending.sent)
      if (active) return this.done(active, { status: 'failed', error })
    }
    // An item that was already gone, a cancel that came too late...: the call goes on
    this.log('Error event:', message, about ? `(about ${about})` : '')
  }

  private nextId(kind: string): string {
    return `openmic_${kind}_${++this.count}`
  }
}

/** How a `response.done` says the response ended, with the tokens it used. */
function endOf(response: {
  status?: string
  status_details?: { error?: { message?: string; code?: string; type?: string } } | null
  usage?: RealtimeResponseUsage | null
}): RealtimeResponseEnd {
  const usage = usageOf(response.usage)
  return usage ? { ...statusOf(response), usage } : statusOf(response)
}

/**
 * A response's `usage` as core counts tokens: all input (text, audio and cached, which the API
 * counts in `input_tokens`) and all output (text and audio). None when the API sent none.
 */
function usageOf(usage: RealtimeResponseUsage | null | undefined): ModelUsage | undefined {
  if (!usage || (usage.input_tokens === undefined && usage.output_tokens === undefined)) {
    return undefined
  }
  return { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens }
}

function statusOf(response: Parameters<typeof endOf>[0]): RealtimeResponseEnd {
  switch (response.status) {
    case 'cancelled':
      return { status: 'cancelled' }
    case 'incomplete':
      return { status: 'incomplete' }
    case 'failed': {
      const { message, code, type } = response.status_details?.error ?? {}
      const error = new OpenaiRealtimeError(`response failed: ${message ?? 'no reason given'}`, {
        code,
        type,
        // A failure of the service (no code saying otherwise) may pass: the answer is asked again
        retryable: type === undefined || type === 'server_error',
      })
      return { status: 'failed', error }
    }
    default:
      return { status: 'completed' }
  }
}

function newInputResampler(): Resampler {
  return new Resampler({ fromRate: MICDROP_AUDIO_FORMAT.sampleRate, toRate: REALTIME_SAMPLE_RATE })
}
