import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import { WebSocketFake } from '../net/websocket-fake.js'
import type { UpgradeRejection } from '../net/websocket-fake-server.js'
import { RealtimeConnection } from './RealtimeConnection.js'
import type {
  FakeRealtimeCommit,
  FakeRealtimeConnectionRecord,
  FakeRealtimeHandshake,
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
 * A fake OpenAI Realtime API on 127.0.0.1 for realtime transcription
 * (`/v1/realtime?intent=transcription`), reached through a real WebSocket.
 *
 * It answers `session.update` with `session.updated`, buffers `input_audio_buffer.append` audio,
 * and on each `input_audio_buffer.commit` sends `input_audio_buffer.committed` then plays the next
 * scripted transcription (one script per commit, in order, whatever the connection). It records
 * every handshake, connection, client event, session body and committed audio.
 */
export class FakeOpenaiRealtime extends WebSocketFake {
  /** Every upgrade request, accepted or rejected, in order. */
  readonly handshakes: FakeRealtimeHandshake[] = []
  /** Every accepted connection, in order. */
  readonly connections: FakeRealtimeConnectionRecord[] = []
  /** Every accepted commit, in order over all connections. */
  readonly commits: FakeRealtimeCommit[] = []
  private readonly scripts: FakeTranscriptionStep[][] = []
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

  /** Forgets scripts, rejections and records (open connections stay open). */
  reset(): void {
    for (const list of [
      this.handshakes,
      this.connections,
      this.commits,
      this.scripts,
      this.audio,
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
    const connection = new RealtimeConnection(ws, socket, record, url.searchParams.get('intent'), {
      nextScript: () => this.scripts.shift(),
      commit: (audio) => {
        const itemId = `item_${String(++this.items).padStart(4, '0')}`
        this.commits.push({ connection: this.connections.indexOf(record), itemId, audio })
        return itemId
      },
      appended: (audio) => this.audio.push(audio),
      minCommitMs: this.options.minCommitMs ?? 100,
      models: this.options.models ?? TRANSCRIPTION_MODELS,
    })
    this.live.push(connection)
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
