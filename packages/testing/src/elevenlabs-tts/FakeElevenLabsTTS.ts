import { elevenLabsErrorBody, elevenLabsKeyCheck } from '../net/elevenlabs-handshake.js'
import { WebSocketFake } from '../net/websocket-fake.js'
import type { FakeTTSContext } from './FakeTTSContext.js'
import { FakeTTSConnection } from './FakeTTSConnection.js'
import type { FakeElevenLabsTTSOptions, FakeTTSContextReply } from './types.js'

const PATH = /^\/v1\/text-to-speech\/[^/]+\/multi-stream-input$/

/**
 * A fake of ElevenLabs' multi-context text-to-speech WebSocket on 127.0.0.1
 * (`/v1/text-to-speech/{voice_id}/multi-stream-input`), speaking the real messages: it checks
 * `xi-api-key` (HTTP 401 otherwise), records every message context by context (text, flushes,
 * keep-alives, `close_context`), answers each context with base64 PCM at the asked
 * `output_format` and its character alignment, and sends `isFinal` once a context is closed. A
 * closed context stops generating (unless `ignoreCloseContext`), and a sixth open context is
 * refused with `max_active_conversations` and a close 1008, as the API does.
 *
 * Each new context takes the next scripted reply (`replySpeech`, `replyError`, `replyStall`), or
 * `defaultReply`.
 *
 * @example
 * const fake = await createFakeElevenLabsTTS({ apiKey: 'test' })
 * const tts = new ElevenLabsTTS({ apiKey: 'test', voiceId: 'v', baseURL: fake.baseURL })
 * tts.speak(Readable.from(['Hello there.']))
 * // ... after AudioEnd:
 * fake.contexts[0].text // 'Hello there. '
 * await fake.close()
 */
export class FakeElevenLabsTTS extends WebSocketFake {
  /** Every connection accepted, in order. */
  readonly connections: FakeTTSConnection[] = []
  /** Every upgrade request, accepted or not, with the status it got (101 when accepted). */
  readonly handshakes: Array<{ url: string; status: number }> = []
  /** What a context with nothing scripted gets. */
  defaultReply: FakeTTSContextReply
  private readonly replies: FakeTTSContextReply[] = []

  constructor(options: FakeElevenLabsTTSOptions = {}) {
    super({
      name: 'Fake ElevenLabs TTS',
      path: PATH,
      accept: (ws, req, url) =>
        this.connections.push(
          new FakeTTSConnection(
            ws,
            url,
            req.headers,
            () => this.replies.shift() ?? this.defaultReply,
            options.ignoreCloseContext ?? false
          )
        ),
      server: {
        authorize: (req) => elevenLabsKeyCheck(req, options.apiKey),
        errorBody: elevenLabsErrorBody,
        onHandshake: (req, _url, status) => this.handshakes.push({ url: req.url ?? '/', status }),
      },
    })
    this.defaultReply = options.defaultReply ?? { type: 'speech' }
  }

  /** `http://127.0.0.1:<port>`: the `baseURL` of a client (`ws://` is derived from it). */
  get baseURL(): string {
    return this.origin
  }

  /** Every context of every connection, in the order they were opened. */
  get contexts(): FakeTTSContext[] {
    return this.connections.flatMap((connection) => [...connection.contexts.values()])
  }

  /** Scripts the next context: speech, with these settings. */
  replySpeech(settings: Omit<Extract<FakeTTSContextReply, { type: 'speech' }>, 'type'> = {}): this {
    this.replies.push({ type: 'speech', ...settings })
    return this
  }

  /** Scripts the next context: an error message at its first text. */
  replyError(
    message: string,
    settings: Omit<Extract<FakeTTSContextReply, { type: 'error' }>, 'type' | 'message'> = {}
  ): this {
    this.replies.push({ type: 'error', message, ...settings })
    return this
  }

  /** Scripts the next context: never answered. */
  replyStall(): this {
    this.replies.push({ type: 'stall' })
    return this
  }

  /** Forgets the scripts, the refusals and the recorded connections (cutting open ones). */
  reset(): void {
    this.replies.length = 0
    this.clearRejections()
    for (const connection of this.connections) connection.reset()
    this.connections.length = 0
    this.handshakes.length = 0
  }
}

/** Starts a {@link FakeElevenLabsTTS} on a free port of 127.0.0.1. */
export function createFakeElevenLabsTTS(
  options: FakeElevenLabsTTSOptions = {}
): Promise<FakeElevenLabsTTS> {
  return new FakeElevenLabsTTS(options).listen()
}
