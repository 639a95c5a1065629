import { HTTPClient } from '@mistralai/mistralai'
import { MistralStreamError } from '../errors/MistralStreamError.js'

/** Names the call a request belongs to, from the agent to its own HTTP client; never sent. */
const CALL_HEADER = 'x-openmic-call'

/**
 * The SDK's HTTP client for MistralAgent: the SDK sends each request as always (URL, auth,
 * headers, your `HTTPClient`'s hooks and fetcher, HTTP errors), and the agent reads the body of
 * a successful chat stream itself.
 *
 * Why: the SDK checks every streamed chunk against its schema and ends the whole stream on the
 * first one it rejects (e.g. `"choices": [], "usage": null`, which OpenAI-compatible servers
 * send), so one chunk the agent does not even need would end the answer. The tap takes the body
 * of an event stream for the call that asked for it and hands the SDK an empty one. Each call
 * marks its request with a header naming it, removed before the request is sent, so calls never
 * mix (a late request of a timed-out call included).
 */
export class ChatStreamTap {
  /** Give it to the `Mistral` client (`httpClient`). */
  readonly httpClient: HTTPClient
  /** The calls waiting for their stream, by the id their request carries. */
  private readonly waiting = new Map<string, (body: ReadableStream<Uint8Array>) => void>()
  private calls = 0

  /** @param inner The client that really sends requests (default: the SDK's plain one). */
  constructor(inner: HTTPClient = new HTTPClient()) {
    this.httpClient = new HTTPClient({
      fetcher: (input, init) =>
        this.fetch(inner, input instanceof Request && !init ? input : new Request(input, init)),
    })
  }

  /**
   * Runs `send` (an SDK call that streams) with the headers it must pass on its request, and
   * resolves with the raw body of its stream as soon as the response headers are in, without
   * waiting for the SDK to wrap the (empty) body it gets. Rejects with the SDK's error when the
   * request fails.
   */
  open(
    send: (headers: Record<string, string>) => PromiseLike<unknown>
  ): Promise<ReadableStream<Uint8Array>> {
    const call = String(++this.calls)
    return new Promise((resolve, reject) => {
      this.waiting.set(call, resolve)
      send({ [CALL_HEADER]: call }).then(
        // Once resolved, the promise ignores this; otherwise no stream came.
        () => reject(new MistralStreamError('the answer has no event stream')),
        reject
      )
    }).finally(() => this.waiting.delete(call)) as Promise<ReadableStream<Uint8Array>>
  }

  private async fetch(inner: HTTPClient, request: Request): Promise<Response> {
    const call = request.headers.get(CALL_HEADER)
    request.headers.delete(CALL_HEADER)
    const response = await inner.request(request)
    const deliver = call === null ? undefined : this.waiting.get(call)
    const type = response.headers.get('content-type') ?? ''
    if (!deliver || !response.ok || !response.body || !type.includes('text/event-stream')) {
      return response
    }
    deliver(response.body)
    const { status, statusText, headers } = response
    return new Response('', { status, statusText, headers })
  }
}
