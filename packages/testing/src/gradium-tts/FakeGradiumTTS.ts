import { WebSocketSessionsFake } from '../net/websocket-fake.js'
import type { FakeGradiumTTSRequest } from './FakeGradiumTTSRequest.js'
import { FakeGradiumTTSSession } from './FakeGradiumTTSSession.js'
import type { FakeGradiumSpeechReply, FakeGradiumTTSOptions } from './types.js'

/** The path of Gradium's streaming TTS WebSocket. */
export const GRADIUM_TTS_PATH = '/api/speech/tts'

/**
 * A fake of Gradium's streaming text-to-speech on 127.0.0.1: a WebSocket on `/api/speech/tts`
 * speaking the real messages, multiplexed by `client_req_id` like Gradium with
 * `close_ws_on_eos: false`. Each `setup` gets its `ready`; each `text` gets audio (a tone in the
 * setup's `output_format`: `pcm_16000`, `pcm_24000`, or 48 kHz `pcm`) and a word timestamp per
 * word; the client's `end_of_stream` gets one back, then a close unless `close_ws_on_eos` is
 * `false`. Audio goes on after the client ends a request, as Gradium finishes what it was given.
 *
 * Requests are answered with speech unless a reply is scripted (in order, one per setup): an
 * in-band error, a stall, a close or a reset.
 *
 * @example
 * const fake = await createFakeGradiumTTS()
 * fake.reply({ kind: 'error', message: 'Concurrency limit exceeded', code: 1008 })
 * // ... a client connects to `fake.baseURL`, sets up a request, sends text
 * fake.requests[0].text // what the client sent
 * await fake.close()
 */
export class FakeGradiumTTS extends WebSocketSessionsFake<FakeGradiumTTSSession> {
  private readonly replies: FakeGradiumSpeechReply[] = []

  constructor(options: FakeGradiumTTSOptions = {}) {
    super({
      name: 'Fake Gradium TTS',
      path: GRADIUM_TTS_PATH,
      accept: (ws, req) =>
        this.sessions.push(
          new FakeGradiumTTSSession(ws, req.headers, options, () => this.nextReply())
        ),
    })
  }

  /** `http://127.0.0.1:<port>`: the `baseURL` of a client (which derives `ws://` from it). */
  get baseURL(): string {
    return this.origin
  }

  /** Every request of every socket, in order. */
  get requests(): FakeGradiumTTSRequest[] {
    return this.sessions.flatMap((session) => session.requests)
  }

  /** Queues how the next request (setup) is answered. */
  reply(reply: FakeGradiumSpeechReply): this {
    this.replies.push(reply)
    return this
  }

  /** Forgets the replies not used yet. */
  clearReplies(): this {
    this.replies.length = 0
    return this
  }

  /** Resolves once `count` requests were set up, over all sockets. */
  waitForRequests(count: number, timeoutMs = 5000): Promise<FakeGradiumTTSRequest[]> {
    return this.waitForCount(() => this.requests, count, timeoutMs, 'requests set up')
  }

  private nextReply(): FakeGradiumSpeechReply {
    return this.replies.shift() ?? { kind: 'speech' }
  }
}

/** Starts a {@link FakeGradiumTTS} on a free port of 127.0.0.1. */
export function createFakeGradiumTTS(options: FakeGradiumTTSOptions = {}): Promise<FakeGradiumTTS> {
  return new FakeGradiumTTS(options).listen()
}
