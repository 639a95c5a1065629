import { ScriptedSessionsFake } from '../net/websocket-fake.js'
import { elevenLabsErrorBody, elevenLabsKeyCheck } from '../net/elevenlabs-handshake.js'
import { FakeScribeSession } from './FakeScribeSession.js'
import type { FakeElevenLabsSTTOptions, FakeScribeStep } from './types.js'

/** The path of ElevenLabs' Scribe realtime transcription WebSocket. */
export const ELEVENLABS_STT_PATH = '/v1/speech-to-text/realtime'

/** Options of a scripted transcript. */
export interface FakeScribeTranscriptOptions {
  /** The `partial_transcript` texts sent first, each the segment so far (default none). */
  partials?: string[]
  /** Wait this long after the commit before the first message (default 0). */
  delayMs?: number
}

/**
 * A fake of ElevenLabs' Scribe realtime speech-to-text on 127.0.0.1: a WebSocket on
 * `/v1/speech-to-text/realtime` speaking the real messages. It checks `xi-api-key` (HTTP 401
 * otherwise), sends `session_started`, records every `input_audio_chunk` (audio decoded), and
 * answers each chunk with `commit: true` with the next scripted reply (`partial_transcript`s,
 * `committed_transcript`, error messages, delays, a close or a reset).
 *
 * Scripted replies are used in order, one per commit, whatever the session.
 *
 * @example
 * const fake = await createFakeElevenLabsSTT({ apiKey: 'test' })
 * fake.replyTranscript('hello there', { partials: ['hello'] })
 * const stt = new ElevenLabsSTT({ apiKey: 'test', baseURL: fake.baseURL })
 * // ... after an utterance:
 * fake.sessions[0].commits[0] // its audio, decoded
 * await fake.close()
 */
export class FakeElevenLabsSTT extends ScriptedSessionsFake<FakeScribeSession, FakeScribeStep> {
  /** Every upgrade request, accepted or not, with the status it got (101 when accepted). */
  readonly handshakes: Array<{ url: string; status: number }> = []

  constructor(options: FakeElevenLabsSTTOptions = {}) {
    super({
      name: 'Fake ElevenLabs STT',
      path: ELEVENLABS_STT_PATH,
      accept: (ws, req, url) =>
        this.sessions.push(new FakeScribeSession(ws, url, req.headers, () => this.nextReply())),
      server: {
        authorize: (req) => elevenLabsKeyCheck(req, options.apiKey),
        errorBody: elevenLabsErrorBody,
        onHandshake: (req, _url, status) => this.handshakes.push({ url: req.url ?? '/', status }),
      },
      fallback: () =>
        options.fallback ?? [
          {
            type: 'error',
            messageType: 'transcriber_error',
            error: 'Fake: no scripted transcript',
          },
        ],
    })
  }

  /** `http://127.0.0.1:<port>`: the `baseURL` of a client (`ws://` is derived from it). */
  get baseURL(): string {
    return this.origin
  }

  /** The audio of every commit of every session, in order. */
  get commits(): Buffer[] {
    return this.sessions.flatMap((session) => session.commits)
  }

  /** Queues a transcript: its partials, then `committed_transcript`. */
  replyTranscript(text: string, options: FakeScribeTranscriptOptions = {}): this {
    return this.reply(
      ...this.pause(options.delayMs),
      ...(options.partials ?? []).map((partial) => ({ type: 'partial', text: partial }) as const),
      { type: 'committed', text }
    )
  }

  /** Queues an error message (default `transcriber_error`) as the reply to the next commit. */
  replyError(error: string, messageType = 'transcriber_error'): this {
    return this.reply({ type: 'error', messageType, error })
  }

  /** Forgets the scripted replies, the refusals and the recorded sessions (cutting open ones). */
  reset(): void {
    this.forgetReplies()
    this.clearRejections()
    for (const session of this.sessions) session.reset()
    this.sessions.length = 0
    this.handshakes.length = 0
  }
}

/** Starts a {@link FakeElevenLabsSTT} on a free port of 127.0.0.1. */
export function createFakeElevenLabsSTT(
  options: FakeElevenLabsSTTOptions = {}
): Promise<FakeElevenLabsSTT> {
  return new FakeElevenLabsSTT(options).listen()
}
