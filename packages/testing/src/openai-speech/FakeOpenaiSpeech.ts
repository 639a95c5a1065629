import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { HttpFake } from '../net/http-fake.js'
import { recordExchange, type RecordedExchange } from '../sse-server/recorded-exchange.js'
import { playSpeech } from './play-speech.js'
import { speechErrorBody, openaiSpeechRequestProblem } from './speech-request-problem.js'
import type {
  FakeOpenaiSpeechAudio,
  FakeOpenaiSpeechReply,
  RecordedOpenaiSpeechRequest,
} from './types.js'

/** Options of {@link createFakeOpenaiSpeech}. */
export interface FakeOpenaiSpeechOptions {
  /**
   * Answer to requests when nothing is scripted (default `{ type: 'audio' }`: a tone as long as
   * the input text says, see `msPerCharacter`). Can be changed later with `defaultReply`.
   */
  defaultReply?: FakeOpenaiSpeechReply
  /** Length of the default tone per character of input, in ms (default 60: about speech rate). */
  msPerCharacter?: number
}

/**
 * A fake OpenAI speech API: a real HTTP server on 127.0.0.1 answering `POST /v1/audio/speech` as
 * OpenAI does for `response_format: 'pcm'`: HTTP 200 and a streamed `application/octet-stream`
 * body of PCM16 mono 24 kHz. Each request gets the next scripted reply (time to first byte, chunk
 * pacing, HTTP errors, stalls, resets), else `defaultReply`. Every request is recorded with what
 * was answered. Requests the real API refuses (no key, missing fields) get its HTTP error, and
 * the scripted reply stays queued.
 */
export class FakeOpenaiSpeech extends HttpFake<RecordedOpenaiSpeechRequest, FakeOpenaiSpeechReply> {
  /** Answer to requests when nothing is scripted. */
  defaultReply: FakeOpenaiSpeechReply
  private readonly msPerCharacter: number

  constructor(options: FakeOpenaiSpeechOptions = {}) {
    super('Fake speech server', (req, res) => this.handle(req, res))
    this.defaultReply = options.defaultReply ?? { type: 'audio' }
    this.msPerCharacter = options.msPerCharacter ?? 60
  }

  /** `http://127.0.0.1:<port>/v1`: pass it as the OpenAI client's `baseURL`. */
  get baseURL(): string {
    return `${this.origin}/v1`
  }

  /** Queues a 200 answer with audio (default: the tone of the input text). */
  replyAudio(options: FakeOpenaiSpeechAudio = {}): this {
    return this.enqueue({ type: 'audio', ...options })
  }

  /** Queues an HTTP error: status, JSON body (default: OpenAI's error body) and `retry-after`. */
  replyError(
    status: number,
    body?: unknown,
    options: { retryAfter?: number; headers?: Record<string, string>; delayMs?: number } = {}
  ): this {
    return this.enqueue({ type: 'error', status, body, ...options })
  }

  /** How long the default tone for `input` lasts, in ms (`msPerCharacter` per character). */
  toneDurationMs(input: string): number {
    return input.length * this.msPerCharacter
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { request, closed, reset }: RecordedExchange<RecordedOpenaiSpeechRequest> =
      await recordExchange(req, res, { audioBytes: 0 })
    const { path } = request
    this.requests.push(request)
    if (request.method !== 'POST' || path !== '/v1/audio/speech') {
      const message = `Fake speech server: no route for ${request.method} ${path}`
      return sendJson(res, 404, speechErrorBody(message))
    }
    const problem = openaiSpeechRequestProblem(req.headers, request.body)
    if (problem) return sendJson(res, problem.status, problem.body)
    const reply = this.nextReply() ?? this.defaultReply
    try {
      await playSpeech(reply, {
        request,
        res,
        closed,
        reset,
        tone: (input) => this.toneDurationMs(input),
        now: () => performance.now(),
      })
    } catch (error) {
      res.destroy(error as Error)
    }
  }
}

/**
 * Starts a fake OpenAI speech API on 127.0.0.1. Script each reply, point the client at
 * `baseURL`, and read what it sent in `requests`.
 *
 * @example
 * const fake = await createFakeOpenaiSpeech()
 * fake.replyAudio({ firstByteMs: 200, chunkDelayMs: 'realtime' })
 * fake.replyError(401)
 * const client = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL })
 * // ... then: fake.requests[0].body.input, fake.requests[0].aborted
 * await fake.close()
 */
export async function createFakeOpenaiSpeech(
  options: FakeOpenaiSpeechOptions = {}
): Promise<FakeOpenaiSpeech> {
  return new FakeOpenaiSpeech(options).listen()
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}
