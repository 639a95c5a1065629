import type { WebSocket } from 'ws'
import { ScriptedSessionsFake } from '../net/websocket-fake.js'
import { FakeGradiumSTTSession, type FakeGradiumFlush } from './FakeGradiumSTTSession.js'
import type { FakeGradiumASRPart, FakeGradiumSTTOptions } from './types.js'

/** The path of Gradium's streaming ASR WebSocket. */
export const GRADIUM_ASR_PATH = '/api/speech/asr'

/** Options of a scripted transcript. */
export interface FakeGradiumTranscriptOptions {
  /** The `text` segments (default: one per word). Their spaced join should be the transcript. */
  segments?: string[]
  /** Wait this long after the flush before the first segment (default 0). */
  delayMs?: number
  /** Wait this long between two segments, and before `flushed` (default 0). */
  segmentDelayMs?: number
  /** Send this many of the last segments after `flushed` instead of before (default 0). */
  afterFlushed?: number
}

/**
 * A fake of Gradium's streaming speech-to-text on 127.0.0.1: a WebSocket on `/api/speech/asr`
 * speaking the real messages. It wants `setup` first (anything else gets an `error` 1008 and a
 * close), answers it with `ready`, records every audio chunk, and answers each `flush` with the
 * next scripted reply (`text` segments, `end_text`, `step`, `flushed` with the client's
 * `flush_id`, in-band errors, delays, a close or a reset). `end_of_stream` gets `end_of_stream`
 * and a close 1000.
 *
 * Scripted replies are used in order, one per flush, whatever the session.
 *
 * @example
 * const fake = await createFakeGradiumSTT()
 * fake.replyTranscript('Hello world', { delayMs: 150 })
 * // ... a client connects to `fake.baseURL`, sends setup, waits for ready, streams audio, flushes
 * fake.flushes[0].audio // the audio of the first utterance, decoded
 * await fake.close()
 */
export class FakeGradiumSTT extends ScriptedSessionsFake<
  FakeGradiumSTTSession,
  FakeGradiumASRPart
> {
  constructor(private readonly options: FakeGradiumSTTOptions = {}) {
    super({
      name: 'Fake Gradium ASR',
      path: GRADIUM_ASR_PATH,
      accept: (ws, req) => this.connection(ws, req.headers),
      fallback: () =>
        options.fallback ?? [
          {
            type: 'error',
            message: 'Fake Gradium ASR: no scripted transcription left',
            keepOpen: true,
          },
        ],
    })
  }

  /** `http://127.0.0.1:<port>`: the `baseURL` of a client (which derives `ws://` from it). */
  get baseURL(): string {
    return this.origin
  }

  /** Every flush of every session, in order. */
  get flushes(): FakeGradiumFlush[] {
    return this.sessions.flatMap((session) => session.flushes)
  }

  /** Queues a transcript: its `text` segments, an `end_text`, then `flushed`. */
  replyTranscript(text: string, options: FakeGradiumTranscriptOptions = {}): this {
    const segments = options.segments ?? text.split(/\s+/).filter(Boolean)
    const late = Math.min(options.afterFlushed ?? 0, segments.length)
    const texts = (list: string[]) =>
      list.flatMap((segment, i): FakeGradiumASRPart[] => [
        ...(i > 0 ? this.pause(options.segmentDelayMs) : []),
        { type: 'text', text: segment },
      ])
    return this.reply(
      ...this.pause(options.delayMs),
      ...texts(segments.slice(0, segments.length - late)),
      ...(segments.length > late ? [{ type: 'end_text' } as const] : []),
      ...this.pause(options.segmentDelayMs),
      { type: 'flushed' },
      ...texts(segments.slice(segments.length - late))
    )
  }

  /** Queues an in-band `error` (then a close with its code) as the reply to the next flush. */
  replyError(message: string, options: { code?: number; delayMs?: number } = {}): this {
    return this.reply(...this.pause(options.delayMs), {
      type: 'error',
      message,
      code: options.code,
    })
  }

  /** Resolves once `count` flushes were received, over all sessions. */
  waitForFlushes(count: number, timeoutMs = 5000): Promise<FakeGradiumFlush[]> {
    return this.waitForCount(() => this.flushes, count, timeoutMs, 'flushes received')
  }

  private connection(ws: WebSocket, headers: FakeGradiumSTTSession['headers']): void {
    const session = new FakeGradiumSTTSession(ws, headers, {
      onFlush: () => this.nextReply(),
      onSetup: (s) => {
        const { apiKey, readyDelayMs = 0, withholdReady } = this.options
        if (apiKey !== undefined && s.headers['x-api-key'] !== apiKey) {
          return s.sendError('Invalid API key', 1008)
        }
        if (withholdReady) return
        if (readyDelayMs > 0) setTimeout(() => s.open && s.sendReady(), readyDelayMs)
        else s.sendReady()
      },
    })
    this.sessions.push(session)
  }
}

/** Starts a {@link FakeGradiumSTT} on a free port of 127.0.0.1. */
export function createFakeGradiumSTT(options: FakeGradiumSTTOptions = {}): Promise<FakeGradiumSTT> {
  return new FakeGradiumSTT(options).listen()
}
