import { existsSync } from 'node:fs'
import OpenAI from 'openai'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { createFakeOpenAI, fixturePath, readFixtureLines, type FakeOpenAI } from '../src/index.js'

let fake: FakeOpenAI
let client: OpenAI

beforeEach(async () => {
  await fake?.close()
  fake = await createFakeOpenAI()
  client = new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 })
})
afterAll(() => fake?.close())

async function responsesEvents(stream: AsyncIterable<any>) {
  const events: any[] = []
  for await (const event of stream) events.push(event)
  return events
}

async function chatText(body: Partial<OpenAI.ChatCompletionCreateParamsStreaming> = {}) {
  const stream = await client.chat.completions.create({
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    ...body,
  })
  let text = ''
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
  return text
}

describe('fixtures', () => {
  it("resolves the package's own fixtures folder", () => {
    expect(existsSync(fixturePath('openai-responses/text.chunks.txt'))).toBe(true)
  })

  it('replays a Responses fixture event for event, with event: lines and no [DONE]', async () => {
    const path = fixturePath('openai-responses/text.chunks.txt')
    fake.replyFixture(path)
    const stream = await client.responses.create({ model: 'm', input: 'hi', stream: true })
    const events = await responsesEvents(stream)
    expect(events).toEqual(readFixtureLines(path).map((line) => JSON.parse(line)))

    fake.replyFixture(path)
    const raw = await (
      await fetch(`${fake.baseURL}/responses`, { method: 'POST', body: '{}' })
    ).text()
    expect(raw.startsWith('event: response.created\ndata: {"type":"response.created"')).toBe(true)
    expect(raw).not.toContain('[DONE]')
  })

  it('replays a Chat Completions fixture ended by [DONE]', async () => {
    fake.replyFixture(fixturePath('openai-chat/text.chunks.txt'))
    expect(await chatText()).toBe('POST_TOOL')
    fake.replyFixture(readFixtureLines(fixturePath('openai-chat/text.chunks.txt')))
    const raw = await (await fetch(`${fake.baseURL}/chat/completions`, { method: 'POST' })).text()
    expect(raw.endsWith('data: [DONE]\n\n')).toBe(true)
    expect(raw).not.toContain('event:')
  })
})

describe('scripted responses', () => {
  it('streams text deltas in the Responses format', async () => {
    fake.replyText('Hel', 'lo')
    const events = await responsesEvents(
      await client.responses.create({ model: 'm', input: 'hi', stream: true })
    )
    const deltas = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta)
    expect(deltas).toEqual(['Hel', 'lo'])
    expect(events.at(-1).type).toBe('response.completed')
    expect(events.at(-1).response.output[0].content[0].text).toBe('Hello')
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i))
  })

  it('streams text deltas in the Chat format, usage chunk when asked', async () => {
    fake.replyText('Hel', 'lo')
    expect(await chatText({ stream_options: { include_usage: true } })).toBe('Hello')
  })

  it('streams tool calls in both formats, arguments cut in chunks', async () => {
    const call = {
      id: 'call_1',
      name: 'get_weather',
      arguments: { city: 'Paris' },
      argumentChunks: 3,
    }
    fake.replyToolCalls(call)
    const events = await responsesEvents(
      await client.responses.create({ model: 'm', input: 'hi', stream: true })
    )
    const deltas = events.filter((e) => e.type === 'response.function_call_arguments.delta')
    expect(deltas).toHaveLength(3)
    const done = events.find((e) => e.type === 'response.output_item.done').item
    expect(done).toMatchObject({ type: 'function_call', call_id: 'call_1', name: 'get_weather' })
    expect(JSON.parse(done.arguments)).toEqual({ city: 'Paris' })

    fake.replyToolCalls(call, { name: 'other', arguments: '{}' })
    const stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true })
    const args = ['', '']
    const names: string[] = []
    let finish: string | null = null
    for await (const chunk of stream) {
      for (const tc of chunk.choices[0]?.delta.tool_calls ?? []) {
        if (tc.function?.name) names[tc.index] = tc.function.name
        args[tc.index] += tc.function?.arguments ?? ''
      }
      finish = chunk.choices[0]?.finish_reason ?? finish
    }
    expect(names).toEqual(['get_weather', 'other'])
    expect(args).toEqual(['{"city":"Paris"}', '{}'])
    expect(finish).toBe('tool_calls')
  })

  it('delays parts', async () => {
    fake.replyParts([
      { type: 'text', delta: 'a' },
      { type: 'delay', ms: 60 },
      { type: 'text', delta: 'b' },
    ])
    const text = chatText()
    await fake.waitForRequests(1)
    const receivedAt = performance.now()
    expect(await text).toBe('ab')
    // Half the delay, from the request reaching the server (not from the call: a first request's
    // own cost must not pass for the delay), never a ms-tight bound a timer firing early can fail.
    expect(performance.now() - receivedAt).toBeGreaterThanOrEqual(60 / 2)
  })
})

describe('requests', () => {
  it('records method, path, headers and the parsed body', async () => {
    fake.replyText('ok')
    await chatText()
    expect(fake.requests).toHaveLength(1)
    const request = fake.requests[0]!
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/v1/chat/completions')
    expect(request.headers.authorization).toBe('Bearer sk-test')
    expect(request.body).toMatchObject({ model: 'm', stream: true })
    expect(request.aborted).toBe(false)
  })

  it('records that the client aborted a stalled stream', async () => {
    fake.replyParts([{ type: 'text', delta: 'a' }, { type: 'stall' }])
    const abort = new AbortController()
    const stream = await client.chat.completions.create(
      { model: 'm', messages: [], stream: true },
      { signal: abort.signal }
    )
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content === 'a') abort.abort()
    }
    await fake.requests[0]!.finished
    expect(fake.requests[0]!.aborted).toBe(true)
  })

  it('answers 418 when nothing is scripted', async () => {
    await expect(chatText()).rejects.toMatchObject({ status: 418 })
  })
})

describe('failures', () => {
  it('sends HTTP errors with their body and retry-after, which the SDK honours', async () => {
    fake.replyError(
      429,
      { error: { message: 'slow down', code: 'rate_limit' } },
      { retryAfter: 0.05 }
    )
    fake.replyText('ok')
    const retrying = new OpenAI({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 1 })
    const stream = await retrying.chat.completions.create({
      model: 'm',
      messages: [],
      stream: true,
    })
    for await (const _ of stream);
    expect(fake.requests).toHaveLength(2)

    fake.replyError(401, { error: { message: 'bad key', code: 'invalid_api_key' } })
    await expect(chatText()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' })
  })

  it('resets the connection mid-stream (not counted as a client abort)', async () => {
    fake.replyParts([{ type: 'text', delta: 'a' }, { type: 'reset' }])
    let text = ''
    const read = async () => {
      const stream = await client.chat.completions.create({
        model: 'm',
        messages: [],
        stream: true,
      })
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    }
    await expect(read()).rejects.toThrow()
    expect(text).toBe('a')
    await fake.requests[0]!.finished
    expect(fake.requests[0]!.aborted).toBe(false)
  })

  it('sends malformed SSE that the client fails to parse', async () => {
    fake.replyParts([{ type: 'raw', text: 'data: {"choices": [\n\n' }])
    await expect(chatText()).rejects.toThrow(SyntaxError)
  })

  it('resets before responding and stalls before the status line', async () => {
    fake.enqueue({ type: 'reset' })
    await expect(chatText()).rejects.toThrow(/Connection error/)
    fake.enqueue({ type: 'stall' })
    await expect(
      client.chat.completions.create({ model: 'm', messages: [], stream: true }, { timeout: 100 })
    ).rejects.toThrow(/timed out/i)
    await fake.requests[1]!.finished
    expect(fake.requests[1]!.aborted).toBe(true)
  })
})
