import { FakeSseServer, type FakeSseServerOptions } from '../sse-server/FakeSseServer.js'
import { chatDialect } from './chat-dialect.js'
import { responsesDialect } from './responses-dialect.js'

/** A fake OpenAI API: {@link FakeSseServer} with the OpenAI routes, and `baseURL` for the SDK. */
export class FakeOpenAI extends FakeSseServer {
  /** `http://127.0.0.1:<port>/v1`: pass it as the OpenAI client's `baseURL`. */
  get baseURL(): string {
    return `${this.url}/v1`
  }
}

/**
 * Starts a fake OpenAI API on 127.0.0.1 speaking the Responses API (`/v1/responses`) and Chat
 * Completions (`/v1/chat/completions`) SSE formats. Script each response, point the client at
 * `baseURL`, and read what it sent in `requests`.
 *
 * @example
 * const fake = await createFakeOpenAI()
 * fake.replyText('Hello', ' world')
 * const client = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL })
 * // ... then: fake.requests[0].body.input, fake.requests[0].aborted
 * await fake.close()
 */
export async function createFakeOpenAI(
  options: Partial<FakeSseServerOptions> = {}
): Promise<FakeOpenAI> {
  const server = new FakeOpenAI({
    ...options,
    routes: {
      '/v1/responses': responsesDialect,
      '/v1/chat/completions': chatDialect,
      ...options.routes,
    },
  })
  return server.listen()
}
