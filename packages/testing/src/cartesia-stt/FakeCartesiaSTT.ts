import { ScriptedSessionsFake } from '../net/websocket-fake.js'
import { FakeCartesiaSTTSession } from './FakeCartesiaSTTSession.js'
import type { FakeCartesiaSTTOptions, FakeCartesiaSTTPart } from './types.js'

/** The path of Cartesia's manual-finalize STT WebSocket. */
export const CARTESIA_STT_PATH = '/stt/websocket'

/** Options of a scripted transcript. */
export interface FakeCartesiaTranscriptOptions {
  /**
   * Interim texts sent first (`is_final: false`), each the utterance so far (default none).
   */
  partials?: string[]
  /**
   * The final pieces (`is_final: true`), which the client joins verbatim into `text` (default: the
   * whole text as one). They must join into the text.
   */
  finals?: string[]
  /** Wait this long after the `finalize` before the first message (default 0). */
  delayMs?: number
}

/**
 * A fake of Cartesia's realtime speech-to-text with manual finalize (`/stt/websocket?model=
 * &encoding=&sample_rate=`) on 127.0.0.1, speaking the real messages: it records the binary audio
 * frames and text commands, and answers each `finalize` with the next scripted reply (interim and
 * final `transcript`s, `flush_done`, in-band `error`s, delays, a close, a reset or a stall).
 * `close` gets `done` and a close 1000, as the API does.
 *
 * Scripted replies are used in order, one per `finalize`, whatever the session.
 *
 * @example
 * const fake = await createFakeCartesiaSTT()
 * fake.replyTranscript('Hello there', { partials: ['Hello'] })
 * // ... a client connects to `fake.baseURL`, streams audio, sends `finalize`
 * fake.sessions[0].finalizes[0] // the audio of the first utterance
 */
export class FakeCartesiaSTT extends ScriptedSessionsFake<
  FakeCartesiaSTTSession,
  FakeCartesiaSTTPart
> {
  constructor(options: FakeCartesiaSTTOptions = {}) {
    super({
      name: 'Fake Cartesia STT',
      path: CARTESIA_STT_PATH,
      accept: (ws, req, url) =>
        this.sessions.push(
          new FakeCartesiaSTTSession(ws, req.headers, url, () => this.nextReply())
        ),
      fallback: () =>
        options.fallback ?? [
          { type: 'error', message: 'Fake Cartesia STT: no scripted transcript left' },
        ],
    })
  }

  /** `http://127.0.0.1:<port>`: a client's `baseURL`. */
  get baseURL(): string {
    return this.origin
  }

  /** The audio of every finalized utterance of every session, in order. */
  get finalizes(): Buffer[] {
    return this.sessions.flatMap((session) => session.finalizes)
  }

  /** Queues a transcript: interim texts, the final pieces, then `flush_done`. */
  replyTranscript(text: string, options: FakeCartesiaTranscriptOptions = {}): this {
    const finals = options.finals ?? [text]
    if (finals.join('') !== text) throw new Error(`Fake Cartesia STT: finals do not make "${text}"`)
    return this.reply(
      ...this.pause(options.delayMs),
      ...(options.partials ?? []).map((partial): FakeCartesiaSTTPart => ({
        type: 'transcript',
        text: partial,
        isFinal: false,
      })),
      ...finals.map((piece): FakeCartesiaSTTPart => ({
        type: 'transcript',
        text: piece,
        isFinal: true,
      })),
      { type: 'flush_done' }
    )
  }

  /** Queues an in-band `error` as the reply to the next `finalize` (the socket stays open). */
  replyError(message: string, options: { status?: number; code?: string } = {}): this {
    return this.reply({ type: 'error', message, ...options })
  }

  /** Resolves once `count` finalizes were received, over all sessions. */
  waitForFinalizes(count: number, timeoutMs = 5000): Promise<Buffer[]> {
    return this.waitForCount(() => this.finalizes, count, timeoutMs, 'finalizes')
  }
}

/** Starts a {@link FakeCartesiaSTT} on a free port of 127.0.0.1. */
export function createFakeCartesiaSTT(
  options: FakeCartesiaSTTOptions = {}
): Promise<FakeCartesiaSTT> {
  return new FakeCartesiaSTT(options).listen()
}
