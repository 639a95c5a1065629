import { HTTPClient } from '@mistralai/mistralai'
import { AsyncLocalStorage } from 'node:async_hooks'

/** Where the tap leaves the body of the stream fetched for one call. */
interface Slot {
  body?: ReadableStream<Uint8Array>
}

/**
 * The SDK's HTTP client for MistralAgent: the SDK sends each request as always (URL, auth,
 * headers, your `HTTPClient`'s hooks and fetcher, HTTP errors), and the agent reads the body of
 * a successful chat stream itself.
 *
 * Why: the SDK checks every streamed chunk against its schema and ends the whole stream on the
 * first one it rejects (e.g. `"choices": [], "usage": null`, which OpenAI-compatible servers
 * send), so one chunk the agent does not even need would end the answer. The tap takes the body
 * of an event stream for the call that asked for it (found by async context, so concurrent
 * calls never mix) and hands the SDK an empty one.
 */
export class ChatStreamTap {
  /** Give it to the `Mistral` client (`httpClient`). */
  readonly httpClient: HTTPClient
  private readonly slots = new AsyncLocalStorage<Slot>()

  /** @param inner The client that really sends requests (default: the SDK's plain one). */
  constructor(inner: HTTPClient = new HTTPClient()) {
    this.httpClient = new HTTPClient({
      fetcher: (input, init) =>
        this.fetch(inner, input instanceof Request && !init ? input : new Request(input, init)),
    })
  }

  /**
   * Runs `send` (an SDK call that streams) and resolves with the raw body of its stream once the
   * response headers are in. Rejects with the SDK's error when the request fails.
   */
  async open(send: () => PromiseLike<unknown>): Promise<ReadableStream<Uint8Array>> {
    const slot: Slot = {}
    await this.slots.run(slot, send)
    if (!slot.body) throw new Error('Mistral answered without an event stream')
    return slot.body
  }

  private async fetch(inner: HTTPClient, request: Request): Promise<Response> {
    const response = await inner.request(request)
    const slot = this.slots.getStore()
    const type = response.headers.get('content-type') ?? ''
    if (!slot || !response.ok || !response.body || !type.includes('text/event-stream')) {
      return response
    }
    slot.body = response.body
    const { status, statusText, headers } = response
    return new Response('', { status, statusText, headers })
  }
}
