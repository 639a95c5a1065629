import type { IncomingHttpHeaders } from 'node:http'

/** A tool call a fake server streams, in the dialect's wire format. */
export interface FakeToolCall {
  /** Call id (generated when omitted). */
  id?: string
  name: string
  /** Arguments: a JSON string sent as-is, or an object encoded once. Default `{}`. */
  arguments?: string | Record<string, unknown>
  /** Into how many argument deltas the JSON is cut (default 1). */
  argumentChunks?: number
}

/** One step of a scripted streamed response. */
export type FakePart =
  /** A text delta. */
  | { type: 'text'; delta: string }
  /** A reasoning delta (a sign of life, never spoken). */
  | { type: 'reasoning'; delta: string }
  /** A complete tool call, streamed as the dialect streams tool calls. */
  | ({ type: 'tool-call' } & FakeToolCall)
  /** One wire event, as a value or as its JSON text (sent byte for byte), framed as SSE. */
  | { type: 'event'; data: unknown }
  /** Raw bytes written as they are (malformed SSE, comments, partial frames). */
  | { type: 'raw'; text: string }
  /** Wait before the next part. */
  | { type: 'delay'; ms: number }
  /** Send nothing more and keep the connection open until the client gives up. */
  | { type: 'stall' }
  /** Destroy the connection here (the client sees a reset mid-stream). */
  | { type: 'reset' }

/** The tokens a response reports it used, where the API reports them. */
export interface FakeUsage {
  inputTokens: number
  outputTokens: number
}

/** What a response reports when its script says nothing. */
export const DEFAULT_FAKE_USAGE: Readonly<FakeUsage> = Object.freeze({
  inputTokens: 10,
  outputTokens: 10,
})

/** How the server answers one request. */
export type FakeResponse =
  | {
      type: 'stream'
      parts: FakePart[]
      /**
       * Wrap the parts in the dialect's opening and closing events (`response.created` /
       * `response.completed`, role chunk / finish chunk). Default true; false for recorded fixtures.
       */
      envelope?: boolean
      /** Write the dialect's terminator (`data: [DONE]`) after the parts. Default true. */
      terminator?: boolean
      /** Wait this long after each part that writes something (default 0). */
      partDelayMs?: number
      /**
       * The usage the closing events report, as the API does (default 10 tokens in, 10 out; the
       * Chat Completions dialect only when the request asks for it, as OpenAI does).
       */
      usage?: FakeUsage
      headers?: Record<string, string>
    }
  | {
      type: 'error'
      status: number
      /** JSON body (default: the dialect's error body with a generic message). A string is sent as-is. */
      body?: unknown
      /** Value of the `retry-after` header, in seconds. */
      retryAfter?: number
      headers?: Record<string, string>
    }
  /** Destroy the connection before any response is sent. */
  | { type: 'reset' }
  /** Never answer (no status line) until the client gives up. */
  | { type: 'stall' }

/** A request the fake server received. */
export interface RecordedRequest {
  method: string
  /** Path without the query string, e.g. `/v1/responses`. */
  path: string
  headers: IncomingHttpHeaders
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: any
  rawBody: string
  /** True when the client closed the connection before the response was complete. */
  aborted: boolean
  /** Resolves once the response is over: completed, aborted by the client, or reset by the server. */
  finished: Promise<void>
}

/** Builds the wire events of a scripted stream for one dialect. Stateful: one per response. */
export interface StreamEncoder {
  start(): unknown[]
  text(delta: string): unknown[]
  reasoning(delta: string): unknown[]
  toolCall(call: Required<Pick<FakeToolCall, 'id' | 'name'>> & { chunks: string[] }): unknown[]
  /** The closing events, with the usage the response reports. */
  finish(usage: FakeUsage): unknown[]
}

/** A wire format spoken on one route: how events are framed and how scripted parts look. */
export interface SseDialect {
  /** The SSE `event:` name of a wire event, or undefined for data-only SSE. */
  eventName?(event: unknown): string | undefined
  /** Written after the last event of a complete stream, e.g. `data: [DONE]\n\n`. */
  terminator?: string
  createEncoder(request: RecordedRequest): StreamEncoder
  /** The JSON body of an HTTP error response. */
  errorBody(status: number, message: string): unknown
  /**
   * Rejects a request the real API would refuse (an HTTP error instead of the next scripted
   * response, which stays queued), or returns undefined to accept it.
   */
  rejectRequest?(request: RecordedRequest): { status: number; body: unknown } | undefined
}
