import { FirstTokenTimeoutError } from '@openmic/core'
import { createServer, type AddressInfo } from 'node:net'
import OpenAI from 'openai'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { OpenaiAgent, OpenaiStreamError } from '../src/index.js'
import { answerOnce, makeAgent, readAll, useFakeOpenAI } from './helpers.js'

const server = useFakeOpenAI()

function weatherTool(calls: unknown[] = []) {
  return {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: z.object({ city: z.string() }),
    execute: (input: { city: string }) => {
      calls.push(input)
      return { city: input.city, sky: 'sunny' }
    },
  }
}

describe.each(['responses', 'chat'] as const)('OpenaiAgent (api: %s)', (api) => {
  const path = api === 'chat' ? '/v1/chat/completions' : '/v1/responses'

  it('streams text deltas and records the answer', async () => {
    const { fake } = server
    fake.replyText('Hello', ' there', '!')
    const agent = makeAgent(fake, { api, model: 'my-model', settings: { temperature: 0.2 } })
    const chunks: string[] = []
    const stream = agent.answer()
    stream.on('data', (chunk) => chunks.push(chunk.toString()))
    await new Promise((resolve) => stream.on('end', resolve))
    expect(chunks.join('')).toBe('Hello there!')
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'Hello there!' })
    const [request] = fake.requests
    expect(request!.path).toBe(path)
    expect(request!.headers.authorization).toBe('Bearer sk-test')
    expect(request!.body).toMatchObject({ model: 'my-model', stream: true, temperature: 0.2 })
  })

  it('sends no tools for the very first message, then strict tools', async () => {
    const { fake } = server
    fake.replyText('Welcome!').replyText('Fine.')
    const agent = new OpenaiAgent({
      api,
      apiKey: 'k',
      baseURL: fake.baseURL,
      systemPrompt: 'Greet the user.',
    })
    agent.addTool(weatherTool())
    await answerOnce(agent)
    agent.addUserMessage('How are you?')
    await answerOnce(agent)
    expect(fake.requests[0]!.body.tools).toBeUndefined()
    const tools = fake.requests[1]!.body.tools
    expect(tools).toHaveLength(1)
    const tool = api === 'chat' ? tools[0].function : tools[0]
    expect(tool).toMatchObject({ name: 'get_weather', strict: true })
    expect(tool.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    })
  })

  it('runs a tool call, then sends the call and its result in the next request', async () => {
    const { fake } = server
    const calls: unknown[] = []
    fake.replyToolCalls({
      id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      argumentChunks: 4,
    })
    fake.replyText('Sunny in Paris.')
    const agent = makeAgent(fake, { api })
    agent.addTool(weatherTool(calls))
    const { text } = await answerOnce(agent)
    expect(text).toBe('Sunny in Paris.')
    expect(calls).toEqual([{ city: 'Paris' }])
    expect(agent.conversation.slice(2)).toEqual([
      {
        role: 'tool_call',
        toolCallId: 'call_1',
        toolName: 'get_weather',
        parameters: '{"city":"Paris"}',
      },
      {
        role: 'tool_result',
        toolCallId: 'call_1',
        toolName: 'get_weather',
        output: '{"city":"Paris","sky":"sunny"}',
      },
      { role: 'assistant', content: 'Sunny in Paris.' },
    ])
    const second = fake.requests[1]!.body
    if (api === 'chat') {
      expect(second.messages.slice(2)).toEqual([
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Paris","sky":"sunny"}' },
      ])
    } else {
      expect(second.input.slice(2)).toEqual([
        {
          type: 'function_call',
          call_id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
        },
        {
          type: 'function_call_output',
          call_id: 'call_1',
          output: '{"city":"Paris","sky":"sunny"}',
        },
      ])
    }
  })

  it('runs parallel calls and text plus a call in one response', async () => {
    const { fake } = server
    const calls: unknown[] = []
    fake.replyParts([
      { type: 'text', delta: 'Let me check. ' },
      { type: 'tool-call', id: 'a', name: 'get_weather', arguments: { city: 'Oslo' } },
      { type: 'tool-call', id: 'b', name: 'get_weather', arguments: { city: 'Rome' } },
    ])
    fake.replyText('Cold and warm.')
    const agent = makeAgent(fake, { api })
    agent.addTool(weatherTool(calls))
    const { text } = await answerOnce(agent)
    expect(text).toBe('Let me check. Cold and warm.')
    expect(calls).toEqual([{ city: 'Oslo' }, { city: 'Rome' }])
    const second = fake.requests[1]!.body
    if (api === 'chat') {
      const [assistant, resultA, resultB] = second.messages.slice(2)
      expect(assistant.content).toBe('Let me check. ')
      expect(assistant.tool_calls.map((call: any) => call.id)).toEqual(['a', 'b'])
      expect([resultA.tool_call_id, resultB.tool_call_id]).toEqual(['a', 'b'])
    } else {
      const items = second.input.slice(2)
      expect(items.map((item: any) => item.type ?? item.role)).toEqual([
        'assistant',
        'function_call',
        'function_call_output',
        'function_call',
        'function_call_output',
      ])
    }
  })

  it('ends the turn silently when a skipAnswer tool is called', async () => {
    const { fake } = server
    fake.replyToolCalls({ name: 'semantic_turn' })
    const agent = makeAgent(fake, { api, autoSemanticTurn: true })
    let skipped = false
    agent.on('SkipAnswer', () => (skipped = true))
    const { text } = await answerOnce(agent)
    expect(text).toBe('')
    expect(skipped).toBe(true)
    expect(fake.requests).toHaveLength(1)
    expect(agent.conversation.filter((item) => item.role === 'assistant')).toEqual([])
  })

  it('cancel() mid-stream aborts the request and records nothing', async () => {
    const { fake } = server
    fake.replyParts([{ type: 'text', delta: 'Hello' }, { type: 'stall' }])
    const agent = makeAgent(fake, { api })
    const stream = agent.answer()
    const first = await new Promise((resolve) => stream.once('data', resolve))
    expect(String(first)).toBe('Hello')
    agent.cancel()
    await readAll(stream) // ends at once
    await fake.requests[0]!.finished
    expect(fake.requests[0]!.aborted).toBe(true)
    expect(agent.conversation.map((item) => item.role)).toEqual(['system', 'user'])
  })

  it('fails a stall before the first token after firstTokenTimeoutMs, aborting the request', async () => {
    const { fake } = server
    fake.replyParts([{ type: 'stall' }])
    const agent = makeAgent(fake, { api, maxRetry: 0, firstTokenTimeoutMs: 100 })
    const { failed } = await answerOnce(agent)
    expect(failed).toBeInstanceOf(FirstTokenTimeoutError)
    await fake.requests[0]!.finished
    expect(fake.requests[0]!.aborted).toBe(true)
  })

  it('extracts a value whose start tag is split across deltas', async () => {
    const { fake } = server
    fake.replyText('Your score', ' is ready. <SC', 'ORE>42</SC', 'ORE>')
    const extracted: string[] = []
    const agent = makeAgent(fake, {
      api,
      extract: {
        startTag: '<SCORE>',
        endTag: '</SCORE>',
        saveInMetadata: true,
        callback: (value: string) => extracted.push(value),
      },
    })
    const { text } = await answerOnce(agent)
    expect(text).toBe('Your score is ready. ')
    expect(extracted).toEqual(['42'])
    expect(agent.conversation.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Your score is ready.',
      metadata: { extracted: '42' },
    })
  })

  it('sends recorded tool arguments and outputs encoded once', async () => {
    const { fake } = server
    fake.replyText('ok')
    const agent = makeAgent(fake, { api })
    agent.addToolMessage({
      role: 'tool_call',
      toolCallId: 'c',
      toolName: 't',
      parameters: '{"a":"b"}',
    })
    agent.addToolMessage({ role: 'tool_result', toolCallId: 'c', toolName: 't', output: '"done"' })
    await answerOnce(agent)
    const sent = JSON.stringify(fake.requests[0]!.body)
    expect(sent).toContain(JSON.stringify('{"a":"b"}'))
    expect(sent).not.toContain('\\\\"')
  })

  it('retries malformed SSE before the first token', async () => {
    const { fake } = server
    fake.replyParts([{ type: 'raw', text: 'data: {not json\n\n' }])
    fake.replyText('Recovered.')
    const agent = makeAgent(fake, { api, maxRetry: 1 })
    const { text, failed } = await answerOnce(agent)
    expect(failed).toBeUndefined()
    expect(text).toBe('Recovered.')
    expect(fake.requests).toHaveLength(2)
  })
})

describe('OpenaiAgent options', () => {
  it('uses a ready client when given one', async () => {
    const { fake } = server
    fake.replyText('via client')
    const openai = new OpenAI({ apiKey: 'sk-own', baseURL: fake.baseURL })
    const agent = new OpenaiAgent({ openai, systemPrompt: 's' })
    agent.addUserMessage('hi')
    expect((await answerOnce(agent)).text).toBe('via client')
    expect(agent.openai).toBe(openai)
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-own')
  })

  it('never lets a client it is given retry: a refused request is sent exactly maxRetry + 1 times', async () => {
    const port = await freePort()
    let fetches = 0
    const openai = new OpenAI({
      apiKey: 'sk-own',
      baseURL: `http://127.0.0.1:${port}/v1`,
      // The SDK's default would retry each request twice more on its own.
      fetch: (url, init) => {
        fetches++
        return fetch(url, init)
      },
    })
    const agent = new OpenaiAgent({ openai, systemPrompt: 's', maxRetry: 2 })
    agent.addUserMessage('hi')
    const { text, failed } = await answerOnce(agent)
    expect(text).toBe('')
    expect(failed).toBeInstanceOf(OpenAI.APIConnectionError)
    expect(fetches).toBe(3)
  })

  function failedResponse(code: string) {
    return {
      type: 'event' as const,
      data: {
        type: 'response.failed',
        response: { status: 'failed', error: { code, message: `${code} happened` } },
      },
    }
  }

  it('retries an in-stream server_error before any text, then answers', async () => {
    const { fake } = server
    fake.replyParts([failedResponse('server_error')]).replyText('Second try.')
    const agent = makeAgent(fake, { maxRetry: 2 })
    const { text, failed } = await answerOnce(agent)
    expect(failed).toBeUndefined()
    expect(text).toBe('Second try.')
    expect(fake.requests).toHaveLength(2)
  })

  it('fails at once on an in-stream error the request caused, as an OpenaiStreamError', async () => {
    const { fake } = server
    fake.replyParts([failedResponse('insufficient_quota')]).replyText('Never said.')
    const agent = makeAgent(fake, { maxRetry: 2 })
    const { text, failed } = await answerOnce(agent)
    expect(text).toBe('')
    expect(failed).toBeInstanceOf(OpenaiStreamError)
    expect(failed).toMatchObject({
      code: 'insufficient_quota',
      message: 'OpenaiAgent: insufficient_quota happened',
      retryable: false,
    })
    expect(fake.requests).toHaveLength(1)
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
