import type { IncomingMessage, ServerResponse } from 'node:http'
import { HttpFake } from '../net/http-fake.js'
import { readFixtureLines } from '../fixtures/fixture-path.js'
import { playResponse } from './play-response.js'
import { recordExchange } from './recorded-exchange.js'
import type {
  FakePart,
  FakeResponse,
  FakeToolCall,
  FakeUsage,
  RecordedRequest,
  SseDialect,
} from './types.js'

/** Options of a {@link FakeSseServer}. */
export interface FakeSseServerOptions {
  /** The wire format spoken on each path, e.g. `{ '/v1/chat/completions': chatDialect }`. */
  routes: Record<string, SseDialect>
  /** Answer for requests when nothing is scripted (default: HTTP 418 with a message saying so). */
  fallback?: FakeResponse
}

/** Options of a scripted stream. */
export interface FakeStreamOptions {
  /** Wait this long after each part that writes something (default 0). */
  partDelayMs?: number
  headers?: Record<string, string>
  /** The tokens the response reports it used (default 10 in, 10 out). */
  usage?: FakeUsage
}

/**
 * A real HTTP server on 127.0.0.1 that answers each request with the next scripted response, in
 * the SSE dialect of the route it was sent to, and records every request. The base of the fake
 * provider servers (`createFakeOpenAI`, and others built on it).
 *
 * Scripted responses are used in order, one per request, whatever the route.
 */
export class FakeSseServer extends HttpFake<RecordedRequest, FakeResponse> {
  constructor(private readonly options: FakeSseServerOptions) {
    super('Fake server', (req, res) => this.handle(req, res))
  }

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return this.origin
  }

  /** The last request received. */
  get lastRequest(): RecordedRequest | undefined {
    return this.requests.at(-1)
  }

  /** Queues a stream of scripted parts (wrapped in the dialect's opening and closing events). */
  replyParts(parts: FakePart[], options: FakeStreamOptions = {}): this {
    return this.enqueue({ type: 'stream', parts, ...options })
  }

  /** Queues a streamed text answer, one delta per argument. */
  replyText(...deltas: string[]): this {
    return this.replyParts(deltas.map((delta) => ({ type: 'text', delta })))
  }

  /** Queues a response made of tool calls (several make parallel calls). */
  replyToolCalls(...calls: FakeToolCall[]): this {
    return this.replyParts(calls.map((call) => ({ type: 'tool-call', ...call })))
  }

  /**
   * Queues the replay of a recorded stream: a fixture file path, or its lines (one JSON event
   * each). Events are sent byte for byte, framed in the route's SSE dialect.
   */
  replyFixture(fixture: string | string[], options: FakeStreamOptions = {}): this {
    const lines = typeof fixture === 'string' ? readFixtureLines(fixture) : fixture
    return this.enqueue({
      type: 'stream',
      envelope: false,
      parts: lines.map((data) => ({ type: 'event', data })),
      ...options,
    })
  }

  /** Queues an HTTP error: status, JSON body (default: the dialect's error body) and `retry-after`. */
  replyError(
    status: number,
    body?: unknown,
    options: { retryAfter?: number; headers?: Record<string, string> } = {}
  ): this {
    return this.enqueue({ type: 'error', status, body, ...options })
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { request, closed, reset } = await recordExchange(req, res, {})
    const { path } = request
    this.requests.push(request)
    const dialect = this.dialectFor(path)
    const rejection = dialect?.rejectRequest?.(request)
    const response: FakeResponse | undefined = rejection
      ? { type: 'error', ...rejection }
      : dialect
        ? this.nextReply()
        : undefined
    try {
      if (!dialect) {
        res.writeHead(404, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: `Fake server: no route for ${path}` } }))
        return
      }
      await playResponse(response ?? this.options.fallback ?? noScriptLeft(path), {
        dialect,
        request,
        res,
        closed,
        reset,
      })
    } catch (error) {
      res.destroy(error as Error)
    }
  }

  private dialectFor(path: string): SseDialect | undefined {
    const routes = Object.entries(this.options.routes)
    return (routes.find(([route]) => path === route) ?? routes.find(([r]) => path.endsWith(r)))?.[1]
  }
}

function noScriptLeft(path: string): FakeResponse {
  const message = `Fake server: no scripted response left for ${path}`
  return { type: 'error', status: 418, body: { error: { message, type: 'fake_server' } } }
}
