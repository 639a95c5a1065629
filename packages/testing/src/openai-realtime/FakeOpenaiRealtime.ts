import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import { WebSocketFake } from '../net/websocket-fake.js'
import type { UpgradeRejection } from '../net/websocket-fake-server.js'
import { RealtimeConnection, type RealtimeConnectionHost } from './RealtimeConnection.js'
import { spokenResponse, type FakeSpokenResponseOptions } from './spoken-response.js'
import type {
  FakeRealtimeCommit,
  FakeRealtimeConnectionRecord,
  FakeRealtimeHandshake,
  FakeRealtimeItem,
  FakeRealtimeResponseRecord,
  FakeResponseStep,
  FakeTranscriptionStep,
} from './types.js'

/** Options of {@link createFakeOpenaiRealtime}. */
export interface FakeOpenaiRealtimeOptions {
  /**
   * The only API key accepted (`Authorization: Bearer <key>`); any other is refused with HTTP 401
   * and OpenAI's error body, as the real API does. Default: any key.
   */
  apiKey?: string
  /** Shortest audio a commit accepts, in ms (default 100, the real API's minimum). */
  minCommitMs?: number
  /**
   * Transcription models a `session.update` may name (default {@link TRANSCRIPTION_MODELS});
   * another is refused with an `error` event, as the real API refuses it.
   */
  models?: readonly string[]
}

/** The transcription models the fake accepts by default (from the OpenAI SDK and docs). */
export const TRANSCRIPTION_MODELS: readonly string[] = [
  'whisper-1',
  'gpt-4o-mini-transcribe',
  'gpt-4o-mini-transcribe-2025-12-15',
  'gpt-4o-transcribe',
  'gpt-4o-transcribe-diarize',
  'gpt-realtime-whisper',
  'gpt-live-transcribe',
]

/** Options of {@link FakeOpenaiRealtime.replyTranscript}. */
export interface FakeOpenaiTranscriptOptions {
  /** Texts sent as `delta` events before the final transcript (incremental, as the API sends). */
  partials?: string[]
  /** Wait this long after the commit before the first event (default 0). */
  delayMs?: number
}

/**
 * A fake OpenAI Realtime API on 127.0.0.1, reached through a real WebSocket: realtime
 * transcription (`/v1/realtime?intent=transcription`) and speech-to-speech conversations
 * (`/v1/realtime?model=...`).
 *
 * It answers `session.update` with `session.updated`, buffers `input_audio_buffer.append` audio,
 * and on each `input_audio_buffer.commit` sends `input_audio_buffer.committed` then plays the next
 * scripted transcription (one script per commit, in order, whatever the connection; in a
 * conversation, when its session asks for transcription). A conversation session also keeps its
 * items (committed audio, `conversation.item.create` / `delete` / `truncate`, the model's output)
 * and plays the next scripted response at each `response.create` (one at a time; `response.cancel`
 * stops it), with the API's errors for what it refuses. It records every handshake, connection,
 * client event, session body, committed audio and response.
 */
export class FakeOpenaiRealtime extends WebSocketFake {
  /** Every upgrade request, accepted or rejected, in order. */
  readonly handshakes: FakeRealtimeHandshake[] = []
  /** Every accepted connection, in order. */
  readonly connections: FakeRealtimeConnectionRecord[] = []
  /** Every accepted commit, in order over all connections. */
  readonly commits: FakeRealtimeCommit[] = []
  /** Every `response.create` of a conversation session, in order over all connections. */
  readonly responses: FakeRealtimeResponseRecord[] = []
  private readonly scripts: FakeTranscriptionStep[][] = []
  private readonly responseScripts: FakeResponseStep[][] = []
  /** Every accepted connection's session, in order (closed ones too). */
  private readonly sessions: RealtimeConnection[] = []
  private readonly live: RealtimeConnection[] = []
  private readonly audio: Buffer[] = []
  private items = 0

  constructor(private readonly options: FakeOpenaiRealtimeOptions = {}) {
    super({
      name: 'Fake OpenAI realtime',
      path: (pathname) => pathname.endsWith('/realtime'),
      accept: (ws, req, url, socket) => this.connection(ws, req, url, socket),
      server: {
        onRequest: (_req, res) => {
          res.writeHead(426, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ error: { message: 'Fake server: WebSocket upgrade required' } }))
        },
        authorize: (req) => this.checkKey(req),
        errorBody: (message) => openaiError(message, 'invalid_request_error'),
        onHandshake: (req, _url, status) =>
          this.handshakes.push({ url: req.url ?? '/', headers: req.headers, status }),
      },
    })
  }

  /** `http://127.0.0.1:<port>/v1`: the `baseURL` to give a client. */
  get baseURL(): string {
    return `${this.origin}/v1`
  }

  /** Every audio byte appended, over all connections and commits, in the order received. */
  get receivedAudio(): Buffer {
    return Buffer.concat(this.audio)
  }

  /** The `session` bodies of every `session.update`, over all connections. */
  get sessionUpdates(): unknown[] {
    return this.connections.flatMap((connection) => connection.sessionUpdates)
  }

  /** How many scripted transcriptions are still waiting for a commit. */
  get pending(): number {
    return this.scripts.length
  }

  /** How many scripted responses are still waiting for a `response.create`. */
  get pendingResponses(): number {
    return this.responseScripts.length
  }

  /**
   * The items of a conversation session (default: the last connection's), in order: what the
   * model remembers. Live objects: read them, do not change them.
   */
  conversation(connection = this.sessions.length - 1): readonly FakeRealtimeItem[] {
    return this.sessions[connection]?.conversation?.items ?? []
  }

  /** Queues the next response, step by step (see {@link FakeResponseStep}). */
  replyResponseSteps(...steps: FakeResponseStep[]): this {
    this.responseScripts.push(steps)
    return this
  }

  /**
   * Queues a spoken response: `text` word by word, each word's transcript then its audio
   * (`msPerChar` of tone a character), the first after `firstAudioMs`; then function calls.
   */
  replyResponse(text: string, options: FakeSpokenResponseOptions = {}): this {
    return this.replyResponseSteps(...spokenResponse(text, options))
  }

  /** Queues the transcription of the next commit, step by step. */
  replySteps(...steps: FakeTranscriptionStep[]): this {
    this.scripts.push(steps)
    return this
  }

  /** Queues a transcript for the next commit: optional partial deltas, then `completed`. */
  replyTranscript(transcript: string, options: FakeOpenaiTranscriptOptions = {}): this {
    const steps: FakeTranscriptionStep[] = []
    if (options.delayMs) steps.push({ type: 'delay', ms: options.delayMs })
    for (const delta of options.partials ?? []) steps.push({ type: 'delta', delta })
    steps.push({ type: 'completed', transcript })
    return this.replySteps(...steps)
  }

  /** Queues an in-band `error` event as the answer to the next commit. */
  replyError(message: string, options: { code?: string; errorType?: string } = {}): this {
    return this.replySteps({ type: 'error', message, ...options })
  }

  /** Queues a transcription that never comes: the next commit is not answered (a stall). */
  replyStall(): this {
    return this.replySteps()
  }

  /** Refuses the next upgrade with this HTTP status (and JSON body, default OpenAI's shape). */
  rejectConnection(status: number, body?: unknown): this {
    return this.rejectUpgrades(status, { body })
  }

  /** Resets every open connection now, without a close handshake. */
  resetConnections(): void {
    for (const connection of [...this.live]) connection.reset()
  }

  /** Resolves once `count` connections were accepted. */
  waitForConnections(count: number, timeoutMs = 5000): Promise<void> {
    return this.waitFor(() => this.connections.length >= count, timeoutMs, `${count} connections`)
  }

  /** Resolves once `count` commits were received. */
  waitForCommits(count: number, timeoutMs = 5000): Promise<void> {
    return this.waitFor(() => this.commits.length >= count, timeoutMs, `${count} commits`)
  }

  /** Resolves once `count` responses were asked for. */
  waitForResponses(count: number, timeoutMs = 5000): Promise<void> {
    return this.waitFor(() => this.responses.length >= count, timeoutMs, `${count} responses`)
  }

  /** Forgets scripts, rejections and records (open connections stay open). */
  reset(): void {
    for (const list of [
      this.handshakes,
      this.connections,
      this.commits,
      this.scripts,
      this.audio,
      this.responses,
      this.responseScripts,
      this.sessions,
    ]) {
      list.length = 0
    }
    this.clearRejections()
  }

  /** Stops the server, cutting open connections. */
  override async close(): Promise<void> {
    for (const connection of [...this.live]) connection.reset()
    await super.close()
  }

  private connection(ws: WebSocket, req: IncomingMessage, url: URL, socket: Duplex): void {
    const record: FakeRealtimeConnectionRecord = {
      url: req.url ?? '/',
      headers: req.headers,
      events: [],
      sessionUpdates: [],
      closed: false,
    }
    this.connections.push(record)
    const index = this.connections.length - 1
    const { searchParams } = url
    const host: RealtimeConnectionHost = {
      nextScript: () => this.scripts.shift(),
      nextResponse: () => this.responseScripts.shift(),
      recordResponse: (response) => {
        const kept: FakeRealtimeResponseRecord = { connection: index, ...response }
        this.responses.push(kept)
        return kept
      },
      newId: (prefix) => `${prefix}_${String(++this.items).padStart(4, '0')}`,
      commit: (audio) => {
        const itemId = `item_${String(++this.items).padStart(4, '0')}`
        this.commits.push({ connection: this.connections.indexOf(record), itemId, audio })
        return itemId
      },
      appended: (audio) => this.audio.push(audio),
      minCommitMs: this.options.minCommitMs ?? 100,
      models: this.options.models ?? TRANSCRIPTION_MODELS,
    }
    const connection = new RealtimeConnection(
      ws,
      socket,
      record,
      searchParams.get('intent'),
      host,
      searchParams.get('model')
    )
    this.live.push(connection)
    this.sessions.push(connection)
    ws.on('close', () => {
      const index = this.live.indexOf(connection)
      if (index >= 0) this.live.splice(index, 1)
    })
  }

  private checkKey(req: IncomingMessage): UpgradeRejection | undefined {
    const expected = this.options.apiKey
    if (expected === undefined) return undefined
    const key = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1]
    if (key === expected) return undefined
    const shown = key ? `${key.slice(0, 3)}***${key.slice(-2)}` : ''
    const message = key
      ? `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`
      : "You didn't provide an API key."
    return { status: 401, body: openaiError(message, 'invalid_request_error', 'invalid_api_key') }
  }
}

/**
 * Starts a fake OpenAI realtime transcription server on 127.0.0.1. Script one transcription per
 * commit, point the client's `baseURL` at `fake.baseURL`, and read what it sent.
 *
 * @example
 * const fake = await createFakeOpenaiRealtime({ apiKey: 'sk-test' })
 * fake.replyTranscript('Hello world', { partials: ['Hello', ' world'], delayMs: 150 })
 * const stt = new OpenaiSTT({ apiKey: 'sk-test', baseURL: fake.baseURL })
 * // ... then: fake.sessionUpdates[0], fake.commits[0].audio, fake.receivedAudio
 * await fake.close()
 */
export async function createFakeOpenaiRealtime(
  options: FakeOpenaiRealtimeOptions = {}
): Promise<FakeOpenaiRealtime> {
  return new FakeOpenaiRealtime(options).listen()
}

function openaiError(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } }
}
