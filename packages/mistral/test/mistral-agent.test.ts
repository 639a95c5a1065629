import { HTTPClient } from '@mistralai/mistralai'
import { fixturePath } from '@openmic/testing'
import { createServer, type AddressInfo } from 'node:net'
import { finished } from 'node:stream/promises'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import {
  BRIDGE_ASSISTANT_CONTENT,
  SILENT_USER_CONTENT,
} from '../src/convert/convert-to-mistral-messages.js'
import { mistralAgent, readAll, useFakeMistral } from './helpers.js'

const fake = useFakeMistral()

const weatherTool = (execute: (input: { location: string }) => unknown) => ({
  name: 'weather',
  description: 'Current weather of a city',
  parameters: z.object({ location: z.string() }),
  execute,
})

describe('MistralAgent: fixture replay', () => {
  it('streams the text fixture and records the answer', async () => {
    fake.server.replyFixture(fixturePath('mistral/text.chunks.txt'))
    const agent = mistralAgent(fake.server)
    agent.addUserMessage('Say hello')
    expect(await readAll(agent.answer())).toBe('Hello, world! This is a test response.')
    expect(agent.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'Hello, world! This is a test response.',
    })
    const { body, headers, path } = fake.server.requests[0]!
    expect(path).toBe('/v1/chat/completions')
    expect(headers.authorization).toBe('Bearer test-key')
    expect(Object.keys(headers).filter((name) => name.startsWith('x-openmic'))).toEqual([])
    expect(body).toMatchObject({
      model: 'mistral-small-latest',
      stream: true,
      messages: [
        { role: 'system', content: 'You are a test assistant.' },
        { role: 'user', content: 'Say hello' },
      ],
    })
  })

  it('speaks only the text of the reasoning fixture, never the thinking', async () => {
    fake.server.replyFixture(fixturePath('mistral/reasoning-then-text.chunks.txt'))
    const agent = mistralAgent(fake.server, { model: 'magistral-medium-2507' })
    agent.addUserMessage('2+2?')
    expect(await readAll(agent.answer())).toBe('2 + 2 = 4')
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: '2 + 2 = 4' })
    expect(fake.server.requests[0]!.body.model).toBe('magistral-medium-2507')
  })

  it('runs the tool of the tool-call fixture and sends the call and its result back', async () => {
    fake.server
      .replyFixture(fixturePath('mistral/tool-call.chunks.txt'))
      .replyText('It is 21 degrees.')
    const execute = vi.fn(async () => ({ celsius: 21 }))
    const agent = mistralAgent(fake.server)
    agent.addTool(weatherTool(execute))
    agent.addUserMessage('Weather in San Francisco?')
    expect(await readAll(agent.answer())).toBe('It is 21 degrees.')
    expect(execute).toHaveBeenCalledWith({ location: 'San Francisco' }, agent)
    expect(agent.conversation.slice(2)).toEqual([
      {
        role: 'tool_call',
        toolCallId: 'gSIMJiOkT',
        toolName: 'weather',
        parameters: '{"location": "San Francisco"}',
      },
      {
        role: 'tool_result',
        toolCallId: 'gSIMJiOkT',
        toolName: 'weather',
        output: '{"celsius":21}',
      },
      { role: 'assistant', content: 'It is 21 degrees.' },
    ])
    const first = fake.server.requests[0]!.body
    expect(first.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'Current weather of a city',
          strict: true,
          parameters: {
            type: 'object',
            properties: { location: { type: 'string' } },
            required: ['location'],
            additionalProperties: false,
          },
        },
      },
    ])
    expect(fake.server.requests[1]!.body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        tool_calls: [
          {
            id: 'gSIMJiOkT',
            type: 'function',
            index: 0,
            function: { name: 'weather', arguments: '{"location": "San Francisco"}' },
          },
        ],
        prefix: false,
      },
      { role: 'tool', tool_call_id: 'gSIMJiOkT', name: 'weather', content: '{"celsius":21}' },
    ])
  })
})

describe('MistralAgent: tools', () => {
  it('assembles tool-call arguments sent in pieces, for parallel calls', async () => {
    fake.server
      .replyToolCalls(
        { id: 'abcDEF123', name: 'weather', arguments: { location: 'Paris' }, argumentChunks: 6 },
        { id: 'abcDEF124', name: 'weather', arguments: { location: 'Rome' }, argumentChunks: 3 }
      )
      .replyText('Paris and Rome: 21.')
    const execute = vi.fn(async ({ location }: { location: string }) => ({ location, celsius: 21 }))
    const agent = mistralAgent(fake.server)
    agent.addTool(weatherTool(execute))
    agent.addUserMessage('Weather in Paris and Rome?')
    expect(await readAll(agent.answer())).toBe('Paris and Rome: 21.')
    expect(execute.mock.calls.map(([input]) => input)).toEqual([
      { location: 'Paris' },
      { location: 'Rome' },
    ])
    const second = fake.server.requests[1]!.body.messages
    expect(second.map((message: { role: string }) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
    ])
    expect(
      second[2].tool_calls.map(
        (call: { function: { arguments: string } }) => call.function.arguments
      )
    ).toEqual(['{"location":"Paris"}', '{"location":"Rome"}'])
  })

  it('sends no tools for the first message (system prompt only) and never writes an empty user message', async () => {
    fake.server.replyText('Hello! ', 'How can I help?')
    const agent = mistralAgent(fake.server, { autoEndCall: true })
    expect(await readAll(agent.answer())).toBe('Hello! How can I help?')
    expect(agent.conversation).toEqual([
      { role: 'system', content: 'You are a test assistant.' },
      { role: 'assistant', content: 'Hello! How can I help?' },
    ])
    const { body } = fake.server.requests[0]!
    expect(body.messages).toEqual([{ role: 'user', content: 'You are a test assistant.' }])
    expect(body.tools).toBeUndefined()
  })

  it('answers again right after its own message (no 400): the request ends with a user message, the conversation does not', async () => {
    fake.server.replyText('Hello!').replyText('Are you still there?')
    const agent = mistralAgent(fake.server)
    const failed = vi.fn()
    agent.on('Failed', failed)
    expect(await readAll(agent.answer())).toBe('Hello!')
    expect(await readAll(agent.answer())).toBe('Are you still there?')
    expect(failed).not.toHaveBeenCalled()
    const sent = fake.server.requests[1]!.body.messages as Array<{ role: string; content: string }>
    expect(sent.map(({ role, content }) => ({ role, content }))).toEqual([
      { role: 'system', content: 'You are a test assistant.' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: SILENT_USER_CONTENT },
    ])
    expect(agent.conversation.map((item) => item.role)).toEqual([
      'system',
      'assistant',
      'assistant',
    ])
  })

  it('leaves a conversation Mistral accepts after a turn that ended with a tool call and no text', async () => {
    fake.server.replyToolCalls({ id: 'semTurn01', name: 'semantic_turn' }).replyText('Sure, go on.')
    const agent = mistralAgent(fake.server, { autoSemanticTurn: true })
    const skipped = vi.fn()
    agent.on('SkipAnswer', skipped)
    agent.addUserMessage('I would like to')
    expect(await readAll(agent.answer())).toBe('')
    expect(skipped).toHaveBeenCalledOnce()
    expect(agent.conversation.filter((item) => item.role === 'assistant')).toEqual([])

    agent.addUserMessage('book a table')
    expect(await readAll(agent.answer())).toBe('Sure, go on.')
    const roles = fake.server.requests[1]!.body.messages.map(
      (message: { role: string }) => message.role
    )
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user'])
    expect(fake.server.requests[1]!.body.messages[4].content).toBe(BRIDGE_ASSISTANT_CONTENT)
  })

  it('holds back an extraction tag split across deltas', async () => {
    fake.server.replyText('Your score ', 'is ready. <sc', 'ore>42</sco', 're>')
    const extracted = vi.fn()
    const agent = mistralAgent(fake.server, {
      extract: {
        startTag: '<score>',
        endTag: '</score>',
        callback: extracted,
        saveInMetadata: true,
      },
    })
    agent.addUserMessage('Score?')
    expect(await readAll(agent.answer())).toBe('Your score is ready. ')
    expect(extracted).toHaveBeenCalledWith('42')
    expect(agent.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'Your score is ready.',
      metadata: { extracted: '42' },
    })
  })

  it('passes settings through and sends requests through a given HTTPClient', async () => {
    fake.server.replyText('Ok')
    const seen: string[] = []
    const httpClient = new HTTPClient().addHook('beforeRequest', (request) => {
      seen.push(request.url)
      request.headers.set('x-traced', 'yes')
    })
    const agent = mistralAgent(fake.server, {
      httpClient,
      settings: { temperature: 0.2, maxTokens: 50 },
    })
    agent.addUserMessage('Hi')
    expect(await readAll(agent.answer())).toBe('Ok')
    const { body, headers } = fake.server.requests[0]!
    expect(seen).toEqual([`${fake.server.serverURL}/v1/chat/completions`])
    expect(headers['x-traced']).toBe('yes')
    expect(body).toMatchObject({ temperature: 0.2, max_tokens: 50, stream: true })
  })
})

describe('MistralAgent: cancel', () => {
  it('aborts the HTTP request at once and records nothing', async () => {
    fake.server.replyParts([{ type: 'text', delta: 'Hello' }, { type: 'stall' }])
    const agent = mistralAgent(fake.server)
    const failed = vi.fn()
    agent.on('Failed', failed)
    agent.addUserMessage('Talk to me')
    const stream = agent.answer()
    const chunks: string[] = []
    stream.on('data', (chunk) => chunks.push(String(chunk)))
    await vi.waitFor(() => expect(chunks).toEqual(['Hello']))
    agent.cancel()
    const request = fake.server.requests[0]!
    await request.finished
    expect(request.aborted).toBe(true)
    await finished(stream)
    expect(agent.conversation.at(-1)).toEqual({ role: 'user', content: 'Talk to me' })
    expect(failed).not.toHaveBeenCalled()
  })
  it('aborts a request still waiting for its first token', async () => {
    fake.server.enqueue({ type: 'stall' })
    const agent = mistralAgent(fake.server)
    agent.addUserMessage('Hello?')
    const stream = agent.answer()
    const request = (await fake.server.waitForRequests(1))[0]!
    agent.cancel()
    expect(await readAll(stream)).toBe('')
    await request.finished
    expect(request.aborted).toBe(true)
    expect(agent.conversation).toHaveLength(2)
  })
})

describe('MistralAgent: errors', () => {
  it('times out a stall before the first token, aborting the request', async () => {
    fake.server.enqueue({ type: 'stall' })
    const agent = mistralAgent(fake.server, { firstTokenTimeoutMs: 100, maxRetry: 0 })
    const failed = vi.fn()
    agent.on('Failed', failed)
    agent.addUserMessage('Hi')
    expect(await readAll(agent.answer())).toBe('')
    expect(failed.mock.calls[0]![0]).toMatchObject({ name: 'FirstTokenTimeoutError' })
    await fake.server.requests[0]!.finished
    expect(fake.server.requests[0]!.aborted).toBe(true)
  })

  it('retries a stream that breaks before any text', async () => {
    fake.server.enqueue({ type: 'reset' }).replyText('Second try.')
    const agent = mistralAgent(fake.server)
    agent.addUserMessage('Hi')
    expect(await readAll(agent.answer())).toBe('Second try.')
    expect(fake.server.requests).toHaveLength(2)
  })

  it('retries a stream whose first chunk is not valid JSON', async () => {
    fake.server.replyParts([{ type: 'raw', text: 'data: {"choices": [tru\n\n' }]).replyText('Fine.')
    const agent = mistralAgent(fake.server)
    agent.addUserMessage('Hi')
    expect(await readAll(agent.answer())).toBe('Fine.')
    expect(fake.server.requests).toHaveLength(2)
  })
  it('never retries on its own: a refused request is sent exactly maxRetry + 1 times', async () => {
    const port = await freePort()
    let fetches = 0
    const httpClient = new HTTPClient({
      fetcher: (input, init) => {
        fetches++
        return fetch(input, init)
      },
    })
    const agent = mistralAgent(fake.server, {
      serverURL: `http://127.0.0.1:${port}`,
      httpClient,
      maxRetry: 2,
    })
    const failed = vi.fn()
    agent.on('Failed', failed)
    agent.addUserMessage('Hi')
    expect(await readAll(agent.answer())).toBe('')
    expect(fetches).toBe(3)
    expect(failed).toHaveBeenCalledOnce()
  })
})

describe('MistralAgent: chunks it does not need', () => {
  it('speaks and saves the text around a chunk the SDK would reject ("choices": [], "usage": null)', async () => {
    const emptyChunk = {
      id: 'cmpl-1',
      object: 'chat.completion.chunk',
      created: 1769088854,
      model: 'mistral-small-latest',
      choices: [],
      usage: null,
    }
    fake.server.replyParts([
      { type: 'text', delta: 'Before the empty chunk, ' },
      { type: 'event', data: emptyChunk },
      { type: 'text', delta: 'and after it.' },
    ])
    const agent = mistralAgent(fake.server)
    const failed = vi.fn()
    agent.on('Failed', failed)
    agent.addUserMessage('Hi')
    expect(await readAll(agent.answer())).toBe('Before the empty chunk, and after it.')
    expect(agent.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'Before the empty chunk, and after it.',
    })
    expect(failed).not.toHaveBeenCalled()
  })
})

/** A port of 127.0.0.1 nothing listens on (bound, then closed). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
