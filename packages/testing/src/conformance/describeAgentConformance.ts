import type { Agent, MicdropConversationItem } from '@openmic/core'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ConformanceAnswer, ConformanceSetup, MakeConformanceAgent } from './types.js'

/** Options of {@link describeAgentConformance}. */
export interface AgentConformanceOptions {
  /** Name of the `describe` block (default `Agent conformance`). */
  name?: string
}

/**
 * Declares vitest tests that any Agent implementation must pass: streaming, tool calls (encoded
 * once), skipAnswer and emitOutput tools, cancellation, extraction across split deltas, and
 * failures. `makeAgent` builds the agent for each test from the options and scripted answers.
 *
 * @example
 * describeAgentConformance(({ options, answers }) => {
 *   fake.reset()
 *   fake.enqueue(...fakeResponsesOf(answers))
 *   return new OpenaiAgent({ ...options, apiKey: 'test', baseURL: fake.baseURL })
 * })
 */
export function describeAgentConformance(
  makeAgent: MakeConformanceAgent,
  { name = 'Agent conformance' }: AgentConformanceOptions = {}
): void {
  describe(name, () => {
    let current: Agent | undefined
    afterEach(() => {
      current?.destroy()
      current = undefined
    })

    async function start(
      answers: ConformanceAnswer[],
      options: Partial<ConformanceSetup['options']> = {}
    ) {
      const setup: ConformanceSetup = {
        options: {
          systemPrompt: 'You are tested.',
          maxRetry: 0,
          firstTokenTimeoutMs: 5000,
          ...options,
        },
        answers,
      }
      const agent = await makeAgent(setup)
      current = agent
      agent.addUserMessage('Hi')
      const failures: unknown[] = []
      agent.on('Failed', (error) => failures.push(error))
      return { agent, failures }
    }

    const spoken = (agent: Agent) =>
      agent.conversation.filter((item) => item.role === 'assistant').map(contentOf)

    it('streams the answer in chunks and records it', async () => {
      const { agent, failures } = await start([
        { deltas: ['Hello', ' there,', ' friend!'], delayMs: 15 },
      ])
      const messages: MicdropConversationItem[] = []
      agent.on('Message', (message) => messages.push(message))
      const chunks = await readChunks(agent.answer())
      expect(chunks.join('')).toBe('Hello there, friend!')
      expect(chunks.length).toBeGreaterThan(1)
      expect(spoken(agent)).toEqual(['Hello there, friend!'])
      expect(messages).toEqual([{ role: 'assistant', content: 'Hello there, friend!' }])
      expect(failures).toEqual([])
    })

    it('runs a tool call, records it encoded once, and answers with its result', async () => {
      const { agent, failures } = await start([
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
        { deltas: ['Sunny.'] },
      ])
      const inputs: unknown[] = []
      agent.addTool({
        name: 'get_weather',
        description: 'Weather of a city',
        parameters: z.object({ city: z.string() }),
        execute: (input) => {
          inputs.push(input)
          return { sky: 'sunny' }
        },
      })
      const toolMessages: MicdropConversationItem[] = []
      agent.on('ToolMessage', (message) => toolMessages.push(message))
      expect(await readText(agent.answer())).toBe('Sunny.')
      expect(inputs).toEqual([{ city: 'Paris' }])
      const call = agent.conversation.find((item) => item.role === 'tool_call')
      const result = agent.conversation.find((item) => item.role === 'tool_result')
      expect(call).toMatchObject({ role: 'tool_call', toolName: 'get_weather' })
      expect(JSON.parse((call as { parameters: string }).parameters)).toEqual({ city: 'Paris' })
      expect(result).toMatchObject({ toolName: 'get_weather', output: '{"sky":"sunny"}' })
      expect(toolMessages).toEqual([call, result])
      expect(spoken(agent)).toEqual(['Sunny.'])
      expect(failures).toEqual([])
    })

    it('emits ToolCall for an emitOutput tool', async () => {
      const { agent } = await start([
        { toolCalls: [{ name: 'save', arguments: { value: 7 } }] },
        { deltas: ['Saved.'] },
      ])
      agent.addTool({
        name: 'save',
        description: 'Save a value',
        parameters: z.object({ value: z.number() }),
        emitOutput: true,
        execute: ({ value }) => ({ saved: value }),
      })
      const events: unknown[] = []
      agent.on('ToolCall', (event) => events.push(event))
      await readText(agent.answer())
      expect(events).toEqual([{ name: 'save', parameters: { value: 7 }, output: { saved: 7 } }])
    })

    it('ends the turn silently when a skipAnswer tool is called', async () => {
      const { agent } = await start([{ toolCalls: [{ name: 'semantic_turn', arguments: {} }] }], {
        autoSemanticTurn: true,
      })
      let skipped = 0
      agent.on('SkipAnswer', () => skipped++)
      expect(await readText(agent.answer())).toBe('')
      expect(skipped).toBe(1)
      expect(spoken(agent)).toEqual([])
    })

    it('cancel() ends the stream at once and records nothing', async () => {
      const deltas = Array.from({ length: 40 }, (_, i) => `word${i} `)
      const { agent, failures } = await start([{ deltas, delayMs: 25 }])
      const stream = agent.answer()
      await new Promise((resolve) => stream.once('data', resolve))
      const cancelledAt = Date.now()
      agent.cancel()
      await readText(stream)
      expect(Date.now() - cancelledAt).toBeLessThan(100)
      await new Promise((resolve) => setTimeout(resolve, 60))
      expect(spoken(agent)).toEqual([])
      expect(failures).toEqual([])
    })

    it('holds back an extraction tag split across deltas', async () => {
      const extracted: string[] = []
      const { agent } = await start([{ deltas: ['All done. <RES', 'ULT>yes</RESULT>'] }], {
        extract: {
          startTag: '<RESULT>',
          endTag: '</RESULT>',
          saveInMetadata: true,
          callback: (value: string) => extracted.push(value),
        },
      })
      const text = await readText(agent.answer())
      expect(text).not.toContain('<')
      expect(text.trim()).toBe('All done.')
      expect(extracted).toEqual(['yes'])
      expect(agent.conversation.at(-1)).toMatchObject({
        role: 'assistant',
        content: 'All done.',
        metadata: { extracted: 'yes' },
      })
    })

    it('fails with the HTTP status, ends the stream and records nothing', async () => {
      const { agent, failures } = await start([{ errorStatus: 401 }])
      expect(await readText(agent.answer())).toBe('')
      await new Promise((resolve) => setImmediate(resolve))
      expect(failures).toHaveLength(1)
      expect(failures[0]).toMatchObject({ status: 401 })
      expect(spoken(agent)).toEqual([])
    })
  })
}

function contentOf(item: MicdropConversationItem): string {
  return 'content' in item ? item.content : ''
}

async function readChunks(stream: AsyncIterable<unknown>): Promise<string[]> {
  const chunks: string[] = []
  for await (const chunk of stream) chunks.push(String(chunk))
  return chunks
}

async function readText(stream: AsyncIterable<unknown>): Promise<string> {
  return (await readChunks(stream)).join('')
}
