import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { AiSdkAgent, type AiSdkAgentOptions } from '../src/index.js'
import { answerOnce, readAll } from './helpers.js'
import {
  finish,
  httpError,
  mockModel,
  textStream,
  toolCallStream,
  type ModelPart,
  type MockReply,
} from './mock-model.js'

function agentWith(replies: MockReply[], options: Partial<AiSdkAgentOptions> = {}) {
  const model = mockModel(...replies)
  const agent = new AiSdkAgent({ model, systemPrompt: 'You are a test.', ...options })
  return { agent, model }
}

const weatherTool = (execute: (input: { city: string }) => unknown) => ({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute,
})

describe('AiSdkAgent with the AI SDK mock model: answers', () => {
  it('streams the text and records the answer, sending the conversation as messages', async () => {
    const { agent, model } = agentWith([textStream('Hello', ', world', '!')])
    agent.addUserMessage('Hi')
    const chunks: string[] = []
    const stream = agent.answer()
    stream.on('data', (chunk) => chunks.push(String(chunk)))
    await new Promise((resolve) => stream.on('end', resolve))
    expect(chunks.join('')).toBe('Hello, world!')
    expect(chunks.length).toBeGreaterThan(1)
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'Hello, world!' })
    expect(model.doStreamCalls).toHaveLength(1)
    expect(model.doStreamCalls[0]!.prompt).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ])
  })

  it('passes settings through to the model call', async () => {
    const { agent, model } = agentWith([textStream('Ok.')], {
      settings: {
        temperature: 0.2,
        maxOutputTokens: 50,
        headers: { 'x-trace': 'abc' },
        providerOptions: { mock: { flag: true } },
      },
    })
    agent.addUserMessage('Hi')
    await readAll(agent.answer())
    const call = model.doStreamCalls[0]!
    expect(call).toMatchObject({
      temperature: 0.2,
      maxOutputTokens: 50,
      providerOptions: { mock: { flag: true } },
    })
    expect(call.headers).toMatchObject({ 'x-trace': 'abc' })
  })

  it('never speaks the reasoning of a thinking model', async () => {
    const parts: ModelPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'The user wants a number.' },
      { type: 'reasoning-end', id: 'r' },
      ...textStream('Four.').slice(1),
    ]
    const { agent } = agentWith([parts])
    agent.addUserMessage('2+2?')
    expect(await readAll(agent.answer())).toBe('Four.')
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'Four.' })
  })

  it('holds back an extraction tag split across deltas and saves the extracted value', async () => {
    const { agent } = agentWith([textStream('Sunny today. <mo', 'od>hap', 'py</mood>')], {
      extract: { startTag: '<mood>', endTag: '</mood>', saveInMetadata: true },
    })
    agent.addUserMessage('Weather?')
    expect(await readAll(agent.answer())).toBe('Sunny today. ')
    expect(agent.conversation.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Sunny today.',
      metadata: { extracted: 'happy' },
    })
  })
})

describe('AiSdkAgent with the AI SDK mock model: tools', () => {
  it('offers no tools while the conversation holds only the system prompt', async () => {
    const { agent, model } = agentWith([textStream('Welcome!'), textStream('Sure.')])
    agent.addTool(weatherTool(() => 'sunny'))
    await readAll(agent.answer())
    expect(model.doStreamCalls[0]!.tools).toBeUndefined()
    agent.addUserMessage('Weather?')
    await readAll(agent.answer())
    expect(model.doStreamCalls[1]!.tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather of a city',
        inputSchema: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
          additionalProperties: false,
        },
        strict: true,
      },
    ])
  })

  it("runs the model's tool call with core, keeps the text of every step and sends the result back", async () => {
    const { agent, model } = agentWith([
      toolCallStream(
        { id: 'call_1', name: 'get_weather', input: '{"city":"Paris"}' },
        'Let me check.'
      ),
      textStream('Sunny in Paris.'),
    ])
    const execute = vi.fn(() => ({ sky: 'sunny' }))
    agent.addTool(weatherTool(execute))
    agent.addUserMessage('Weather in Paris?')
    expect(await readAll(agent.answer())).toBe('Let me check. Sunny in Paris.')
    expect(execute).toHaveBeenCalledWith({ city: 'Paris' }, agent)
    expect(agent.conversation.slice(2)).toEqual([
      { role: 'assistant', content: 'Let me check.' },
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
        output: '{"sky":"sunny"}',
      },
      { role: 'assistant', content: 'Sunny in Paris.' },
    ])
    expect(model.doStreamCalls).toHaveLength(2)
    expect(model.doStreamCalls[1]!.prompt.slice(2)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          {
            type: 'tool-call',
            toolCallId: 'call_1',
            toolName: 'get_weather',
            input: { city: 'Paris' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'get_weather',
            output: { type: 'json', value: { sky: 'sunny' } },
          },
        ],
      },
    ])
  })

  it('sends back the metadata the provider attached to a tool call', async () => {
    const call: ModelPart = {
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'get_weather',
      input: '{"city":"Oslo"}',
      providerMetadata: { google: { thoughtSignature: 'sig-1' } },
    }
    const { agent, model } = agentWith([
      [{ type: 'stream-start', warnings: [] }, call, finish('tool-calls')],
      textStream('Snow in Oslo.'),
    ])
    agent.addTool(weatherTool(() => 'snow'))
    agent.addUserMessage('Weather in Oslo?')
    expect(await readAll(agent.answer())).toBe('Snow in Oslo.')
    expect(model.doStreamCalls[1]!.prompt[2]).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'get_weather',
          input: { city: 'Oslo' },
          providerOptions: { google: { thoughtSignature: 'sig-1' } },
        },
      ],
    })
  })

  it('records a failing tool and arguments that are not JSON as tool results, then answers', async () => {
    const { agent } = agentWith([
      [
        { type: 'stream-start', warnings: [] },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Rome"}' },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: '{"city":' },
        finish('tool-calls'),
      ],
      textStream('Sorry, I could not check.'),
    ])
    agent.addTool(
      weatherTool(() => {
        throw new Error('weather service down')
      })
    )
    agent.addUserMessage('Weather in Rome?')
    const { text, failed } = await answerOnce(agent)
    expect(failed).toBeUndefined()
    expect(text).toBe('Sorry, I could not check.')
    const results = agent.conversation.filter((item) => item.role === 'tool_result')
    expect(results).toHaveLength(2)
    expect(results[0]!.output).toContain('weather service down')
    expect(
      agent.conversation.find((item) => 'toolCallId' in item && item.toolCallId === 'c2')
    ).toMatchObject({ role: 'tool_call', parameters: '{"city":' })
    expect(results[1]!.toolCallId).toBe('c2')
  })

  it('ends the turn silently when a skipAnswer tool is called', async () => {
    const { agent, model } = agentWith(
      [toolCallStream({ id: 'c1', name: 'semantic_turn', input: '{}' })],
      { autoSemanticTurn: true }
    )
    const skipped = vi.fn()
    agent.on('SkipAnswer', skipped)
    agent.addUserMessage('I was wondering')
    expect(await readAll(agent.answer())).toBe('')
    expect(skipped).toHaveBeenCalled()
    expect(model.doStreamCalls).toHaveLength(1)
  })
})

describe('AiSdkAgent with the AI SDK mock model: cancel and errors', () => {
  it('cancel() aborts the model request and records nothing', async () => {
    let signal: AbortSignal | undefined
    const model = mockModel()
    model.doStream = async (options) => {
      signal = options.abortSignal
      const stream = new ReadableStream<ModelPart>({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] })
          controller.enqueue({ type: 'text-start', id: 't' })
          controller.enqueue({ type: 'text-delta', id: 't', delta: 'Once upon a time' })
        },
      })
      return { stream }
    }
    const agent = new AiSdkAgent({ model, systemPrompt: 'You are a test.' })
    agent.addUserMessage('Tell me a story')
    const stream = agent.answer()
    await new Promise((resolve) => stream.once('data', resolve))
    agent.cancel()
    await new Promise((resolve) => stream.on('close', resolve))
    expect(signal?.aborted).toBe(true)
    expect(agent.conversation.at(-1)).toEqual({ role: 'user', content: 'Tell me a story' })
  })

  it('retries a 503 before any text (core is the only one retrying), then answers', async () => {
    const { agent, model } = agentWith([httpError(503), textStream('Back.')], { maxRetry: 2 })
    agent.addUserMessage('Hi')
    const { text, failed } = await answerOnce(agent)
    expect(failed).toBeUndefined()
    expect(text).toBe('Back.')
    expect(model.doStreamCalls).toHaveLength(2)
  })

  it('sends a failing request maxRetry + 1 times and fails with its status', async () => {
    const { agent, model } = agentWith([httpError(500), httpError(500), httpError(500)], {
      maxRetry: 2,
    })
    agent.addUserMessage('Hi')
    const { failed } = await answerOnce(agent)
    expect(failed).toMatchObject({ status: 500, statusCode: 500 })
    expect(model.doStreamCalls).toHaveLength(3)
  })

  it('does not retry a 400 and logs nothing to the console', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const { agent, model } = agentWith([httpError(400), textStream('never')], { maxRetry: 2 })
      agent.addUserMessage('Hi')
      const { failed } = await answerOnce(agent)
      expect(failed).toMatchObject({ status: 400 })
      expect(model.doStreamCalls).toHaveLength(1)
      expect(consoleError).not.toHaveBeenCalled()
    } finally {
      consoleError.mockRestore()
    }
  })

  it('follows what the provider says of an error sent inside the stream', async () => {
    const streamError = (error: unknown): ModelPart[] => [
      { type: 'stream-start', warnings: [] },
      { type: 'error', error },
      finish(),
    ]
    const { agent, model } = agentWith(
      [
        streamError({ message: 'Overloaded', code: 'server_error' }),
        streamError({ message: 'Quota', code: 'insufficient_quota', isRetryable: false }),
      ],
      { maxRetry: 2 }
    )
    agent.addUserMessage('Hi')
    const { failed } = await answerOnce(agent)
    expect(failed).toMatchObject({ name: 'AiSdkStreamError', code: 'insufficient_quota' })
    expect(model.doStreamCalls).toHaveLength(2)
  })

  it('keeps the text of a stream that breaks mid-answer, flagged incomplete, without retrying', async () => {
    const { agent, model } = agentWith(
      [
        [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'The answer is ' },
          { type: 'error', error: new TypeError('terminated') },
          finish(),
        ],
        textStream('never'),
      ],
      { maxRetry: 2 }
    )
    agent.addUserMessage('Hi')
    const { text, failed } = await answerOnce(agent)
    expect(text).toBe('The answer is ')
    expect(failed).toBeInstanceOf(TypeError)
    expect(agent.conversation.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'The answer is ',
      metadata: { incomplete: true },
    })
    expect(model.doStreamCalls).toHaveLength(1)
  })
})
