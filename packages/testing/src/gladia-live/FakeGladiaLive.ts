import type { IncomingMessage, ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { ScriptedSessionsFake } from '../net/websocket-fake.js'
import { FakeGladiaSession } from './FakeGladiaSession.js'
import type {
  FakeGladiaInitRequest,
  FakeGladiaLiveOptions,
  FakeGladiaPart,
  FakeGladiaRejection,
} from './types.js'

/** The path of Gladia's live API: `POST` creates a session, the WebSocket streams it. */
export const GLADIA_LIVE_PATH = '/v2/live'

/** Options of a scripted transcript. */
export interface FakeGladiaTranscriptOptions {
  /**
   * The final utterances Gladia cuts the audio into, each sent as a `transcript` with
   * `is_final: true` (default: `[text]`). A user who pauses mid-sentence gives several.
   */
  finals?: string[]
  /**
   * The partial `transcript`s sent while audio arrives, each the current utterance so far
   * (default: the text word by word; `[]` sends none).
   */
  partials?: string[]
  /** Wait this long after `stop_recording` before the finals (default 0). */
  delayMs?: number
  /**
   * Send the finals before `stop_recording` arrives, as the real API does when its endpointing
   * closes an utterance while the user is still streaming (default false).
   */
  finalsBeforeStop?: boolean
}

/**
 * A fake of Gladia's live transcription API (v2) on 127.0.0.1. `POST /v2/live` records the
 * session's body and headers and answers `{ id, url, created_at }`, whose `url` is a WebSocket
 * on this same fake (`ws://127.0.0.1:<port>/v2/live?token=<id>`). The WebSocket takes binary
 * audio or `audio_chunk` JSON, acknowledges each chunk with its byte range, answers
 * `stop_recording`, and plays the reply scripted for the session: partial and final
 * `transcript`s, speech events, errors, delays, closes, resets, stalls, then the end of the
 * session (`end_recording`... `end_session` and a close 1000). A socket may reconnect to the
 * same URL to resume its session.
 *
 * Replies are used in order, one per session, taken when the session receives its first audio
 * (or its `stop_recording`): a session created ahead of time gets the reply scripted last before
 * it was used.
 *
 * @example
 * const fake = await createFakeGladiaLive()
 * fake.replyTranscript('hello there', { finals: ['hello', 'there'] })
 * // ... a client posts to `${fake.baseURL}/v2/live`, streams audio and sends stop_recording
 * fake.sessions[0].audio // every byte it received
 * await fake.close()
 */
export class FakeGladiaLive extends ScriptedSessionsFake<FakeGladiaSession, FakeGladiaPart> {
  /** Every `POST /v2/live` received, accepted or not. */
  readonly initRequests: FakeGladiaInitRequest[] = []
  private readonly rejections: FakeGladiaRejection[] = []
  private count = 0

  constructor(private readonly options: FakeGladiaLiveOptions = {}) {
    super({
      name: 'Fake Gladia',
      path: GLADIA_LIVE_PATH,
      accept: (ws, _req, url) => this.sessionOf(url)!.attach(ws),
      server: {
        onRequest: (req, res) => void this.request(req, res),
        authorize: (_req, url) =>
          this.sessionOf(url)?.ended === false
            ? undefined
            : {
                status: 404,
                body: { statusCode: 404, message: 'Fake Gladia: no such live session' },
              },
        errorBody: (message, status) => ({ statusCode: status, message }),
      },
      fallback: () =>
        options.fallback ?? [{ type: 'error', message: 'Fake Gladia: no reply scripted' }],
    })
  }

  /** `http://127.0.0.1:<port>`: the `baseURL` of a client. */
  get baseURL(): string {
    return this.origin
  }

  /** Queues a transcript: partials while audio comes, finals after `stop_recording`, the end. */
  replyTranscript(text: string, options: FakeGladiaTranscriptOptions = {}): this {
    const words = text.split(/\s+/).filter(Boolean)
    const partials = options.partials ?? words.map((_, i) => words.slice(0, i + 1).join(' '))
    const finals: FakeGladiaPart[] = (options.finals ?? [text]).map((final) => ({
      type: 'final',
      text: final,
    }))
    const delay = this.pause(options.delayMs)
    const partialParts = partials.map((partial): FakeGladiaPart => ({
      type: 'partial',
      text: partial,
    }))
    return this.reply(
      ...partialParts,
      ...(options.finalsBeforeStop
        ? [...finals, { type: 'stop' } as const, ...delay]
        : [{ type: 'stop' } as const, ...delay, ...finals]),
      { type: 'end' }
    )
  }

  /** Queues an in-band error (an `audio_chunk` acknowledgment with `acknowledged: false`). */
  replyError(message: string): this {
    return this.reply({ type: 'error', message })
  }

  /**
   * Refuses the next `times` session creations (default 1) with an HTTP status, as the real API
   * does for a wrong key (401), a bad body (400/422) or too many sessions (429).
   */
  rejectSessions(status: number, options: { times?: number; body?: unknown } = {}): this {
    for (let i = 0; i < (options.times ?? 1); i++)
      this.rejections.push({ status, body: options.body })
    return this
  }

  private async request(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseURL)
    if (req.method !== 'POST' || url.pathname !== GLADIA_LIVE_PATH) {
      return reply(res, 404, { message: `Fake Gladia: no route ${req.method} ${url.pathname}` })
    }
    let text = ''
    for await (const chunk of req) text += String(chunk)
    let body: any
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    const record: FakeGladiaInitRequest = {
      headers: req.headers,
      region: url.searchParams.get('region'),
      body,
      status: 0,
    }
    this.initRequests.push(record)
    if (this.options.initDelayMs) await sleep(this.options.initDelayMs)
    const key = req.headers['x-gladia-key']
    const rejection: FakeGladiaRejection | undefined =
      this.options.apiKey !== undefined && key !== this.options.apiKey
        ? { status: 401, body: { statusCode: 401, message: 'Invalid or missing API key' } }
        : body === undefined
          ? { status: 400, body: { statusCode: 400, message: 'Invalid JSON body' } }
          : this.rejections.shift()
    if (rejection) {
      record.status = rejection.status
      return reply(
        res,
        rejection.status,
        rejection.body ?? {
          statusCode: rejection.status,
          message: `Fake rejection ${rejection.status}`,
        }
      )
    }
    const id = `fake-${++this.count}-${Math.random().toString(36).slice(2, 10)}`
    this.sessions.push(
      new FakeGladiaSession(id, body, () => this.nextReply(), this.options.acknowledge ?? true)
    )
    record.status = 201
    const wsURL = `${this.baseURL.replace(/^http/, 'ws')}${GLADIA_LIVE_PATH}?token=${id}`
    reply(res, 201, { id, url: wsURL, created_at: new Date().toISOString() })
  }

  private sessionOf(url: URL): FakeGladiaSession | undefined {
    return this.sessions.find((s) => s.id === url.searchParams.get('token'))
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** Starts a {@link FakeGladiaLive} on a free port of 127.0.0.1. */
export async function createFakeGladiaLive(
  options: FakeGladiaLiveOptions = {}
): Promise<FakeGladiaLive> {
  return new FakeGladiaLive(options).listen()
}
