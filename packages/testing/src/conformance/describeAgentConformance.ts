import type { Agent, MicdropConversationItem } from '@openmic/core'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { listenDroppingConnections } from '../net/connection-dropper.js'
import type { ConformanceAnswer, ConformanceSetup, MakeConformanceAgent } from './types.js'

/** Options of {@link describeAgentConformance}. */
export interface AgentConformanceOptions {
  /** Name of the `describe` block (default `Agent conformance`). */
  name?: string
  /**
   * The agent calls a model server over HTTP through its SDK (every provider agent): also check
   * what only a network shows, each case through the real SDK. A request that cannot connect is
   * tried exactly `maxRetry + 1` times (so the SDK's own retries are off); `retry-after` is waited
   * and capped at 5 s; a stall before the first token is retried; a stream that breaks after text
   * keeps it, flagged `incomplete`, without retrying. `makeAgent` must then honour
   * `setup.serverUrl`.
   */
  network?: boolean
}

/**
 * Declares vitest tests that any Agent implementation must pass: streaming, tool calls (encoded
 * once), skipAnswer and emitOutput tools, cancellation, extraction across split deltas, and
 * failures (4xx never retried); with `network`, the retry rules every provider shares (see
 * {@link AgentConformanceOptions.network}). `makeAgent` builds the agent for each test from the
 * options and scripted answers.
 *
 * @example
 * describeAgentConformance(
 *   ({ options, answers, serverUrl }) => {
 *     fake.reset()
 *     fake.enqueue(...fakeResponsesOf(answers))
 *     const baseURL = serverUrl ? `${serverUrl}/v1` : fake.baseURL
 *     return new OpenaiAgent({ ...options, apiKey: 'test', baseURL })
 *   },
 *   { name: 'OpenaiAgent conformance', network: true }
 * )
 */
export function describeAgentConformance(
  makeAgent: MakeConformanceAgent,
  { name = 'Agent conformance', network = false }: AgentConformanceOptions = {}
): void {
  describe(name, () => {
    let current: Agent | undefined
    afterEach(() => {
      current?.destroy()
      current = undefined
    })

    async function start(
      answers: ConformanceAnswer[],
      options: Partial<ConformanceSetup['options']> = {},
      serverUrl?: string
    ) {
      const setup: ConformanceSetup = {
        options: {
          systemPrompt: 'You are tested.',
          maxRetry: 0,
          firstTokenTimeoutMs: 5000,
          ...options,
        },
        answers,
        serverUrl,
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

    it.each([401, 400])(
      'fails at once on HTTP %i (never retried), ends the stream and records nothing',
      async (status) => {
        const { agent, failures } = await start(
          [{ errorStatus: status }, { deltas: ['Never said.'] }],
          { maxRetry: 2 }
        )
        expect(await readText(agent.answer())).toBe('')
        await new Promise((resolve) => setImmediate(resolve))
        expect(failures).toHaveLength(1)
        expect(failures[0]).toMatchObject({ status })
        expect(spoken(agent)).toEqual([])
      }
    )

    if (!network) return

    it('tries a request that cannot connect exactly maxRetry + 1 times, then fails', async () => {
      const dropper = await listenDroppingConnections()
      try {
        const { agent, failures } = await start([], { maxRetry: 2 }, dropper.url)
        expect(await readText(agent.answer())).toBe('')
        await new Promise((resolve) => setImmediate(resolve))
        expect(dropper.connections).toBe(3)
        expect(failures).toHaveLength(1)
        expect(spoken(agent)).toEqual([])
      } finally {
        await dropper.close()
      }
    })

    it('sends a failing 5xx request maxRetry + 1 times, then fails with its status', async () => {
      const { agent, failures } = await start(
        [{ errorStatus: 503 }, { errorStatus: 503 }, { deltas: ['Too late.'] }],
        { maxRetry: 1 }
      )
      expect(await readText(agent.answer())).toBe('')
      await new Promise((resolve) => setImmediate(resolve))
      expect(failures).toHaveLength(1)
      expect(failures[0]).toMatchObject({ status: 503 })
      expect(spoken(agent)).toEqual([])
    })

    it('waits what retry-after asks before retrying a 429', async () => {
      const { agent, failures } = await start(
        [{ errorStatus: 429, retryAfter: 1 }, { deltas: ['Made it.'] }],
        { maxRetry: 1 }
      )
      const startedAt = performance.now()
      expect(await readText(agent.answer())).toBe('Made it.')
      // Half the second asked, never a ms-tight bound (a timer may fire a fraction of a ms
      // early): still far above the backoff (200 ms ±20 %) an agent ignoring retry-after waits.
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(1000 / 2)
      expect(failures).toEqual([])
    })

    it('waits at most 5 s whatever retry-after asks', { timeout: 15_000 }, async () => {
      const { agent, failures } = await start(
        [{ errorStatus: 429, retryAfter: 60 }, { deltas: ['Not a minute later.'] }],
        { maxRetry: 1 }
      )
      const startedAt = performance.now()
      expect(await readText(agent.answer())).toBe('Not a minute later.')
      const waited = performance.now() - startedAt
      // The 5 s cap, give or take wide margins: half of it is still far above the backoff, and
      // 2 s over it far below the minute asked.
      expect(waited).toBeGreaterThanOrEqual(5000 / 2)
      expect(waited).toBeLessThan(7_000)
      expect(failures).toEqual([])
    })

    it('retries a request that stalls before its first token, then answers', async () => {
      const { agent, failures } = await start([{ stall: true }, { deltas: ['Awake.'] }], {
        maxRetry: 1,
        firstTokenTimeoutMs: 200,
      })
      expect(await readText(agent.answer())).toBe('Awake.')
      expect(failures).toEqual([])
      expect(spoken(agent)).toEqual(['Awake.'])
    })

    it('keeps the text of a stream that breaks mid-answer, flagged incomplete, and does not retry', async () => {
      const { agent, failures } = await start(
        [{ deltas: ['Half an ', 'answer'], breakAfterDeltas: true }, { deltas: ['Said twice.'] }],
        { maxRetry: 2 }
      )
      expect(await readText(agent.answer())).toBe('Half an answer')
      await new Promise((resolve) => setImmediate(resolve))
      expect(failures).toHaveLength(1)
      expect(agent.conversation.at(-1)).toEqual({
        role: 'assistant',
        content: 'Half an answer',
        metadata: { incomplete: true },
      })
    })
  })
}

function contentOf(item: MicdropConversationItem): string {
  return item.content ?? ''
}

async function readChunks(stream: AsyncIterable<unknown>): Promise<string[]> {
  const chunks: string[] = []
  for await (const chunk of stream) chunks.push(String(chunk))
  return chunks
}

async function readText(stream: AsyncIterable<unknown>): Promise<string> {
  return (await readChunks(stream)).join('')
}
