import OpenAI from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import { createFakeOpenAI, FakeSseServer, chatDialect, type FakeOpenAI } from '../src/index.js'

let fake: FakeOpenAI | FakeSseServer | undefined
afterEach(() => fake?.close())

describe('FakeSseServer options', () => {
  it('answers unscripted requests with the fallback response', async () => {
    const server = await createFakeOpenAI({ fallback: { type: 'error', status: 503 } })
    fake = server
    const client = new OpenAI({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 })
    await expect(client.responses.create({ model: 'm', input: 'x' })).rejects.toMatchObject({
      status: 503,
    })
  })

  it('answers 404 on a path without a route, leaving the script untouched', async () => {
    const server = await new FakeSseServer({ routes: { '/chat': chatDialect } }).listen()
    fake = server
    server.replyText('kept')
    const response = await fetch(`${server.url}/other`, { method: 'POST' })
    expect(response.status).toBe(404)
    expect(server.pending).toBe(1)
    const text = await (await fetch(`${server.url}/chat`, { method: 'POST' })).text()
    expect(text).toContain('"content":"kept"')
    expect(server.requests.map((request) => request.path)).toEqual(['/other', '/chat'])
  })

  it('streams reasoning summaries in the Responses format', async () => {
    const server = await createFakeOpenAI()
    fake = server
    server.replyParts([
      { type: 'reasoning', delta: 'Thinking' },
      { type: 'text', delta: 'Answer' },
    ])
    const client = new OpenAI({ apiKey: 'k', baseURL: server.baseURL })
    const types: string[] = []
    for await (const event of await client.responses.create({
      model: 'm',
      input: 'x',
      stream: true,
    })) {
      types.push(event.type)
    }
    expect(types).toContain('response.reasoning_summary_text.delta')
    expect(types.indexOf('response.reasoning_summary_text.done')).toBeLessThan(
      types.indexOf('response.output_text.delta')
    )
  })

  it('waits partDelayMs after each part and resolves waitForRequests', async () => {
    const server = await createFakeOpenAI()
    fake = server
    server.replyParts(
      [
        { type: 'text', delta: 'a' },
        { type: 'text', delta: 'b' },
        { type: 'text', delta: 'c' },
        { type: 'text', delta: 'd' },
      ],
      { partDelayMs: 30 }
    )
    const done = fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' }).then(
      (response) => response.text()
    )
    const [request] = await server.waitForRequests(1)
    const receivedAt = performance.now()
    expect(request!.body).toEqual({})
    await done
    // One wait after each of the four parts, from the request reaching the server: half of
    // that, a bound no timer firing early can fail, is still twice a single wait.
    expect(performance.now() - receivedAt).toBeGreaterThanOrEqual((4 * 30) / 2)
  })
})
