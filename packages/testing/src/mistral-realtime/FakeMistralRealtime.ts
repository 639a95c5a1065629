import type { WebSocket } from 'ws'
import { ScriptedSessionsFake } from '../net/websocket-fake.js'
import { FakeRealtimeSession } from './FakeRealtimeSession.js'
import type { FakeMistralRealtimeOptions, FakeTranscriptionPart } from './types.js'

/** The path of Mistral's realtime transcription WebSocket. */
export const MISTRAL_REALTIME_PATH = '/v1/audio/transcriptions/realtime'

/** Options of a scripted transcript. */
export interface FakeMistralTranscriptOptions {
  /**
   * The `transcription.text.delta` pieces sent before the final text (default: the text cut
   * after each space). `[]` sends none.
   */
  deltas?: string[]
  /** Wait this long after the flush before the first event (default 0). */
  delayMs?: number
  /** Wait this long between two deltas, and before `transcription.done` (default 0). */
  deltaDelayMs?: number
  /** The `language` of `transcription.done` (default null). */
  language?: string
}

/**
 * A fake of Mistral's realtime transcription API (Voxtral) on 127.0.0.1: a WebSocket on
 * `/v1/audio/transcriptions/realtime?model=...` speaking the real messages. It sends
 * `session.created` on connection, answers `session.update` with `session.updated` (and with an
 * `error` once audio started, like the real API), records every appended chunk, and answers each
 * `input_audio.flush` with the next scripted reply (deltas, `transcription.done`, in-band errors,
 * delays, a close or a reset). `input_audio.end` closes the session with 1000.
 *
 * Scripted replies are used in order, one per flush, whatever the session.
 *
 * @example
 * const fake = await createFakeMistralRealtime()
 * fake.replyTranscript('Hello world', { delayMs: 150 })
 * // ... a client connects to `fake.serverURL`, streams audio and flushes
 * fake.sessions[0].flushes[0] // the audio of the first utterance, decoded
 * await fake.close()
 */
export class FakeMistralRealtime extends ScriptedSessionsFake<
  FakeRealtimeSession,
  FakeTranscriptionPart
> {
  constructor(private readonly options: FakeMistralRealtimeOptions = {}) {
    super({
      name: 'Fake Mistral realtime',
      path: MISTRAL_REALTIME_PATH,
      accept: (ws, req, url) => this.connection(ws, req.headers, url),
      server: { errorBody: (message) => ({ message, type: 'fake_error' }) },
      fallback: () =>
        options.fallback ?? [
          { type: 'error', message: 'Fake Mistral realtime: no scripted transcription left' },
        ],
    })
  }

  /** `http://127.0.0.1:<port>`: the `serverURL` of a client (the SDK derives `ws://` from it). */
  get serverURL(): string {
    return this.origin
  }

  /** The audio of every flush of every session, in order. */
  get flushes(): Buffer[] {
    return this.sessions.flatMap((session) => session.flushes)
  }

  /** Queues a transcript: deltas, then `transcription.done` with `text`. */
  replyTranscript(text: string, options: FakeMistralTranscriptOptions = {}): this {
    const deltas = options.deltas ?? (text.match(/\S+\s*/g) ?? []).map(String)
    return this.reply(
      ...this.pause(options.delayMs),
      ...deltas.flatMap((delta, i): FakeTranscriptionPart[] => [
        ...(i > 0 ? this.pause(options.deltaDelayMs) : []),
        { type: 'delta', text: delta },
      ]),
      ...(deltas.length > 0 ? this.pause(options.deltaDelayMs) : []),
      { type: 'done', text, language: options.language ?? null }
    )
  }

  /** Queues an in-band `error` as the reply to the next flush (the socket stays open). */
  replyError(message: string, options: { code?: number; delayMs?: number } = {}): this {
    return this.reply(...this.pause(options.delayMs), {
      type: 'error',
      message,
      code: options.code,
    })
  }

  /** Resolves once `count` flushes were received, over all sessions. */
  waitForFlushes(count: number, timeoutMs = 5000): Promise<Buffer[]> {
    return this.waitForCount(() => this.flushes, count, timeoutMs, 'flushes received')
  }

  private connection(ws: WebSocket, headers: FakeRealtimeSession['headers'], url: URL): void {
    const session = new FakeRealtimeSession(ws, headers, url, () => this.nextReply())
    this.sessions.push(session)
    if (this.options.withholdSessionCreated) return
    const delay = this.options.sessionCreatedDelayMs ?? 0
    if (delay > 0) setTimeout(() => session.open && session.sendSessionCreated(), delay)
    else session.sendSessionCreated()
  }
}

/** Starts a {@link FakeMistralRealtime} on a free port of 127.0.0.1. */
export function createFakeMistralRealtime(
  options: FakeMistralRealtimeOptions = {}
): Promise<FakeMistralRealtime> {
  return new FakeMistralRealtime(options).listen()
}
