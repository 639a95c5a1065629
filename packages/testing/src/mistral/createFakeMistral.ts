import { FakeSseServer, type FakeSseServerOptions } from '../sse-server/FakeSseServer.js'
import { mistralDialect } from './mistral-dialect.js'

/** A fake Mistral API: {@link FakeSseServer} with Mistral's chat route, and `serverURL` for the SDK. */
export class FakeMistral extends FakeSseServer {
  /** `http://127.0.0.1:<port>`: pass it as the Mistral client's `serverURL`. */
  get serverURL(): string {
    return this.url
  }
}

/**
 * Starts a fake Mistral API on 127.0.0.1 speaking Mistral's chat SSE format on
 * `/v1/chat/completions`, with the same scripting and recording as `createFakeOpenAI`. Like the
 * real API, it answers 400 to a request whose messages Mistral would reject (role order around
 * tool messages, last role, tool call ids), before using a scripted response.
 *
 * @example
 * const fake = await createFakeMistral()
 * fake.replyText('Hello', ' world')
 * const client = new Mistral({ apiKey: 'test', serverURL: fake.serverURL })
 * // ... then: fake.requests[0].body.messages, fake.requests[0].aborted
 * await fake.close()
 */
export async function createFakeMistral(
  options: Partial<FakeSseServerOptions> = {}
): Promise<FakeMistral> {
  const server = new FakeMistral({
    ...options,
    routes: { '/v1/chat/completions': mistralDialect, ...options.routes },
  })
  return server.listen()
}
