import type { PassThrough } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { cancelOnFirstChunk, delay, readAll, recordEvents } from '../../test/helpers.js'
import { Agent } from '../agent/Agent.js'
import type { AgentOptions } from '../agent/types.js'
import type { MicdropConversation } from '../conversation/types.js'
import { FirstTokenTimeoutError } from '../retry/errors.js'
import { ModelEventStream, type ModelEventMapper } from './model-event-stream.js'
import type { ModelCallReport, ToolCallReport } from '../telemetry/reports.js'
import type { ModelAnswerLimits, ModelCallRequest, ModelStreamPart } from './types.js'

type Script = (
  request: ModelCallRequest,
  conversation: MicdropConversation
) => AsyncIterable<ModelStreamPart>

/** A provider whose model calls are scripted by the test. */
class ScriptedAgent extends Agent {
  requests: Array<ModelCallRequest & { conversation: MicdropConversation }> = []
  constructor(
    private readonly script: Script,
    private readonly limits: ModelAnswerLimits = {},
    options: Partial<AgentOptions> = {}
  ) {
    super({ systemPrompt: 'Scripted.', ...options })
  }
  protected generateAnswer(stream: PassThrough, signal: AbortSignal) {
    return this.streamModelAnswer(
      stream,
      signal,
      (request) => {
        this.requests.push({ ...request, conversation: structuredClone(this.conversation) })
        return this.script(request, this.conversation)
      },
      this.limits
    )
  }
  cancel() {
    this.abortAnswer()
  }
}

const text = (delta: string): ModelStreamPart => ({ type: 'text', delta })
const call = (id: string, name: string, args: object = {}): ModelStreamPart => ({
  type: 'tool-call',
  toolCall: { role: 'tool_call', toolCallId: id, toolName: name, parameters: JSON.stringify(args) },
})

async function* parts(...items: ModelStreamPart[]) {
  for (const item of items) {
    await delay(1)
    yield item
  }
}

const assistantTexts = (agent: Agent) =>
  agent.conversation.filter((item) => item.role === 'assistant').map((item) => item.content)

describe('the shared step loop', () => {
  it('streams text, saves the answer and holds a split extraction tag back', async () => {
    const agent = new ScriptedAgent(
      () => parts(text('Your score: '), text('great. <sc'), text('ore>9</score>')),
      {},
      {
        extract: { startTag: '<score>', endTag: '</score>', saveInMetadata: true },
      }
    )
    expect(await readAll(agent.answer())).toBe('Your score: great. ')
    expect(agent.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'Your score: great.',
      metadata: { extracted: '9' },
    })
  })

  it('runs a tool call and calls the model again with the call and its result', async () => {
    const agent = new ScriptedAgent(({ step }) =>
      step === 0 ? parts(call('c1', 'get_time', { tz: 'UTC' })) : parts(text('It is noon.'))
    )
    agent.addTool({
      name: 'get_time',
      description: 'd',
      parameters: z.object({ tz: z.string() }),
      execute: () => '12:00',
    })
    agent.addUserMessage('Time?')
    expect(await readAll(agent.answer())).toBe('It is noon.')
    expect(agent.requests).toHaveLength(2)
    expect(agent.requests[1]!.conversation.slice(2)).toEqual([
      { role: 'tool_call', toolCallId: 'c1', toolName: 'get_time', parameters: '{"tz":"UTC"}' },
      { role: 'tool_result', toolCallId: 'c1', toolName: 'get_time', output: '"12:00"' },
    ])
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'It is noon.' })
  })

  it('runs parallel calls of one response before calling the model once more', async () => {
    const execute = vi.fn((input: { city: string }) => `${input.city}: sunny`)
    const agent = new ScriptedAgent(({ step }) =>
      step === 0
        ? parts(call('a', 'weather', { city: 'Paris' }), call('b', 'weather', { city: 'Rome' }))
        : parts(text('Both sunny.'))
    )
    agent.addTool({
      name: 'weather',
      description: 'd',
      parameters: z.object({ city: z.string() }),
      execute,
    })
    await readAll(agent.answer())
    expect(execute).toHaveBeenCalledTimes(2)
    expect(agent.requests).toHaveLength(2)
    expect(
      agent.conversation
        .slice(1)
        .map((item) => `${item.role}:${'toolCallId' in item ? item.toolCallId : item.content}`)
    ).toEqual([
      'tool_call:a',
      'tool_result:a',
      'tool_call:b',
      'tool_result:b',
      'assistant:Both sunny.',
    ])
  })

  it('keeps text sent with a tool call before the tool items', async () => {
    const agent = new ScriptedAgent(({ step }) =>
      step === 0 ? parts(text('Let me check. '), call('c', 'lookup')) : parts(text('Found it.'))
    )
    agent.addTool({ name: 'lookup', description: 'd', execute: () => ({ found: true }) })
    expect(await readAll(agent.answer())).toBe('Let me check. Found it.')
    expect(agent.conversation.slice(1).map((item) => item.role)).toEqual([
      'assistant',
      'tool_call',
      'tool_result',
      'assistant',
    ])
  })

  it('speaks the text of two model calls with a space between them, never glued together', async () => {
    // Found by the call simulator: "Let me check." then "Found it." reached the TTS as
    // "Let me check.Found it.", one word to it
    const agent = new ScriptedAgent(({ step }) =>
      step === 0 ? parts(text('Let me check.'), call('c', 'lookup')) : parts(text('Found it.'))
    )
    agent.addTool({ name: 'lookup', description: 'd', execute: () => ({ found: true }) })
    expect(await readAll(agent.answer())).toBe('Let me check. Found it.')
    expect(assistantTexts(agent)).toEqual(['Let me check.', 'Found it.'])
  })

  it('ends the turn silently after a skipAnswer tool', async () => {
    const agent = new ScriptedAgent(
      () => parts(call('c', 'semantic_turn')),
      {},
      { autoSemanticTurn: true }
    )
    const events = recordEvents(agent)
    expect(await readAll(agent.answer())).toBe('')
    expect(agent.requests).toHaveLength(1)
    expect(events.map(([name]) => name)).toEqual(['ToolMessage', 'SkipAnswer', 'ToolMessage'])
    expect(assistantTexts(agent)).toEqual([])
  })

  it('stops after maxSteps model calls when the model keeps calling tools', async () => {
    const agent = new ScriptedAgent(({ step }) => parts(call(`c${step}`, 'noop')), { maxSteps: 3 })
    agent.addTool({ name: 'noop', description: 'd' })
    expect(await readAll(agent.answer())).toBe('')
    expect(agent.requests).toHaveLength(3)
  })

  it('retries a call that sent nothing within firstTokenTimeoutMs, then answers', async () => {
    const stall = async function* () {
      await delay(200)
      yield text('late')
    }
    const agent = new ScriptedAgent(
      ({ attempt }) => (attempt === 0 ? stall() : parts(text('Back.'))),
      {
        firstTokenTimeoutMs: 30,
        maxRetry: 2,
      }
    )
    expect(await readAll(agent.answer())).toBe('Back.')
    expect(agent.requests.map((request) => request.attempt)).toEqual([0, 1])
    expect(agent.requests[0]!.signal.aborted).toBe(true)
    expect(agent.requests[0]!.signal.reason).toBeInstanceOf(FirstTokenTimeoutError)
  })

  it('fails with FirstTokenTimeoutError once the retries are used up', async () => {
    const agent = new ScriptedAgent(
      () =>
        (async function* () {
          await delay(500)
          yield text('never')
        })(),
      { firstTokenTimeoutMs: 20, maxRetry: 1 }
    )
    const failed = vi.fn()
    agent.on('Failed', failed)
    expect(await readAll(agent.answer())).toBe('')
    expect(agent.requests).toHaveLength(2)
    expect(failed.mock.calls[0]![0]).toBeInstanceOf(FirstTokenTimeoutError)
  })

  it('lets a call take any time after its first part came within firstTokenTimeoutMs', async () => {
    const slowAfterFirst = async function* () {
      yield text('First.')
      await delay(80)
      yield text(' Then the rest.')
    }
    const agent = new ScriptedAgent(() => slowAfterFirst(), { firstTokenTimeoutMs: 20 })
    const failed = vi.fn()
    agent.on('Failed', failed)
    expect(await readAll(agent.answer())).toBe('First. Then the rest.')
    expect(agent.requests).toHaveLength(1)
    expect(failed).not.toHaveBeenCalled()
  })

  it('waits at least the retry-after a 429 asks before the next try', async () => {
    const startedAt: number[] = []
    const rateLimited = Object.assign(new Error('429 Too many requests'), {
      status: 429,
      headers: new Headers({ 'retry-after-ms': '600' }), // above the first backoff (200 ms ±20 %)
    })
    const agent = new ScriptedAgent(
      ({ attempt }) => {
        startedAt.push(performance.now())
        return attempt === 0
          ? (async function* () {
              throw rateLimited
            })()
          : parts(text('Now.'))
      },
      { maxRetry: 1 }
    )
    expect(await readAll(agent.answer())).toBe('Now.')
    // Half the 600 ms asked, never a ms-tight bound (a timer may fire a fraction of a ms early):
    // still above the longest backoff (240 ms) that a retry ignoring retry-after would wait.
    expect(startedAt[1]! - startedAt[0]!).toBeGreaterThanOrEqual(600 / 2)
  })

  /** Answers with a model that always throws `error`; returns the requests made and the failure. */
  async function answerAlwaysFailing(error: Error, maxRetry: number) {
    const agent = new ScriptedAgent(
      () =>
        (async function* () {
          throw error
        })(),
      { maxRetry }
    )
    const failed = vi.fn()
    agent.on('Failed', failed)
    expect(await readAll(agent.answer())).toBe('')
    return { requests: agent.requests.length, failed }
  }

  it('tries a call that keeps failing with 503 exactly maxRetry + 1 times, then fails', async () => {
    const overloaded = Object.assign(new Error('503 Overloaded'), { status: 503 })
    const { requests, failed } = await answerAlwaysFailing(overloaded, 2)
    expect(requests).toBe(3)
    expect(failed).toHaveBeenCalledWith(overloaded)
  })

  it('does not retry a 4xx error: Failed keeps its status', async () => {
    const unauthorized = Object.assign(new Error('401 Incorrect API key'), { status: 401 })
    const { requests, failed } = await answerAlwaysFailing(unauthorized, 3)
    expect(requests).toBe(1)
    expect(failed).toHaveBeenCalledWith(unauthorized)
    expect((failed.mock.calls[0]![0] as { status: number }).status).toBe(401)
  })

  it('retries a stream that broke before any text (connection reset)', async () => {
    const agent = new ScriptedAgent(({ attempt }) =>
      attempt === 0
        ? (async function* () {
            await delay(1)
            throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
          })()
        : parts(text('Recovered.'))
    )
    expect(await readAll(agent.answer())).toBe('Recovered.')
    expect(agent.requests).toHaveLength(2)
  })

  it('keeps the text written before a stream broke, flagged incomplete, without retrying', async () => {
    const reset = new Error('terminated')
    const agent = new ScriptedAgent(() =>
      (async function* () {
        yield text('The first half')
        await delay(1)
        throw reset
      })()
    )
    const failed = vi.fn()
    agent.on('Failed', failed)
    expect(await readAll(agent.answer())).toBe('The first half')
    expect(agent.requests).toHaveLength(1)
    expect(agent.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'The first half',
      metadata: { incomplete: true },
    })
    expect(failed).toHaveBeenCalledWith(reset)
  })

  it('a stream that breaks while its rest is written, which cancels the answer, records nothing', async () => {
    // Found by the call simulator: the text written after the break reached a TTS that failed on
    // it, the server cancelled the answer from within that write, and the break then saved the
    // text as well as the server's own record of what was heard (two messages)
    const agent = new ScriptedAgent(() =>
      (async function* () {
        await delay(1) // the answer's stream is read (flowing) by then, as the server reads it
        yield text('The first half')
        yield text(' and the rest.')
        throw new Error('terminated')
      })()
    )
    const stream = agent.answer()
    stream.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('rest')) agent.cancel()
    })
    await new Promise((resolve) => stream.on('end', resolve))
    await delay(10)
    expect(assistantTexts(agent)).toEqual([])
  })

  it('cancel mid-stream aborts the model call and records nothing', async () => {
    let seen: AbortSignal | undefined
    const agent = new ScriptedAgent(({ signal }) => {
      seen = signal
      return (async function* () {
        yield text('Once upon')
        await delay(30)
        yield text(' a time')
      })()
    })
    expect(await cancelOnFirstChunk(agent)).toEqual(['Once upon'])
    await delay(50)
    expect(seen?.aborted).toBe(true)
    expect(assistantTexts(agent)).toEqual([])
  })

  it('cancel during a tool call makes no further model call and records no answer', async () => {
    let agent!: ScriptedAgent
    agent = new ScriptedAgent(({ step }) =>
      step === 0 ? parts(call('c', 'slow')) : parts(text('after'))
    )
    agent.addTool({
      name: 'slow',
      description: 'd',
      execute: async () => {
        agent.cancel()
        await delay(5)
        return 'done'
      },
    })
    expect(await readAll(agent.answer())).toBe('')
    await delay(20)
    expect(agent.requests).toHaveLength(1)
    expect(agent.conversation.at(-1)).toMatchObject({ role: 'tool_result', output: '"done"' })
  })

  describe('reading a ModelEventStream', () => {
    /** Events are words; "!" fails the stream; finish() adds a tool call. */
    const wordMapper = (): ModelEventMapper<string> => ({
      map(word, emit) {
        if (word === '!') throw new Error('bad event')
        emit(text(word))
      },
      finish(emit) {
        emit(call('c1', 'noop'))
      },
    })
    async function* words(...items: string[]) {
      for (const item of items) {
        await delay(1)
        yield item
      }
    }

    it('maps each event as it arrives, then the parts of finish()', async () => {
      const agent = new ScriptedAgent(({ step }) =>
        step === 0
          ? new ModelEventStream(Promise.resolve(words('Hel', 'lo')), wordMapper())
          : parts(text(' again'))
      )
      agent.addTool({ name: 'noop', description: 'd' })
      expect(await readAll(agent.answer())).toBe('Hello again')
      expect(agent.conversation.map((item) => item.role)).toEqual([
        'system',
        'assistant',
        'tool_call',
        'tool_result',
        'assistant',
      ])
    })

    it('fails with what mapError makes of a mapping error', async () => {
      const mapped = new Error('mapped')
      const agent = new ScriptedAgent(
        () => new ModelEventStream(words('Hi', '!'), wordMapper(), () => mapped),
        { maxRetry: 0 }
      )
      const failed = vi.fn()
      agent.on('Failed', failed)
      expect(await readAll(agent.answer())).toBe('Hi')
      expect(failed).toHaveBeenCalledWith(mapped)
    })

    it('drops the parts of a timed-out call that ignored its signal', async () => {
      const ignoresAbort = async function* () {
        await delay(40)
        yield 'late '
      }
      const agent = new ScriptedAgent(
        ({ attempt }) =>
          attempt === 0
            ? new ModelEventStream(ignoresAbort(), wordMapper())
            : (async function* () {
                yield text('Back')
                await delay(80)
                yield text('.')
              })(),
        { firstTokenTimeoutMs: 20, maxRetry: 1 }
      )
      expect(await readAll(agent.answer())).toBe('Back.')
    })
  })

  describe('reports (ModelCallEnd, ToolCallEnd)', () => {
    /** The reports of one answer, in order. */
    async function reportsOf(agent: ScriptedAgent) {
      const models: ModelCallReport[] = []
      const tools: ToolCallReport[] = []
      agent.on('ModelCallEnd', (report) => models.push(report))
      agent.on('ToolCallEnd', (report) => tools.push(report))
      const text = await readAll(agent.answer())
      await delay(5) // a cancelled call reports once its try settled
      return { text, models, tools }
    }

    it('reports each model call of the step loop with its first token and usage, and each tool call', async () => {
      const agent = new ScriptedAgent(({ step }) =>
        step === 0
          ? parts({ type: 'reasoning' }, text('Let me look.'), call('c1', 'lookup'), {
              type: 'usage',
              usage: { inputTokens: 120, outputTokens: 7 },
            })
          : parts(text(' Found it.'), {
              type: 'usage',
              usage: { inputTokens: 140, outputTokens: 4 },
            })
      )
      agent.addTool({
        name: 'lookup',
        description: 'd',
        execute: async () => {
          await delay(2)
          return 'ok'
        },
      })
      const { text: said, models, tools } = await reportsOf(agent)
      expect(said).toBe('Let me look. Found it.')
      expect(
        models.map(({ step, outcome, usage, toolCalls, provider, retries }) => ({
          step,
          outcome,
          usage,
          toolCalls,
          provider,
          retries,
        }))
      ).toEqual([
        {
          step: 0,
          outcome: 'completed',
          usage: { inputTokens: 120, outputTokens: 7 },
          toolCalls: 1,
          provider: 'scripted',
          retries: [],
        },
        {
          step: 1,
          outcome: 'completed',
          usage: { inputTokens: 140, outputTokens: 4 },
          toolCalls: 0,
          provider: 'scripted',
          retries: [],
        },
      ])
      // One clock, in order: call, then its tool, then the next call.
      const [first, second] = models as [ModelCallReport, ModelCallReport]
      const [tool] = tools as [ToolCallReport]
      expect(first.startAt).toBeLessThanOrEqual(first.firstTokenAt!)
      expect(first.firstTokenAt!).toBeLessThanOrEqual(first.endAt)
      expect(first.endAt).toBeLessThanOrEqual(tool.startAt)
      expect(tool.startAt).toBeLessThan(tool.endAt)
      expect(tool.endAt).toBeLessThanOrEqual(second.startAt)
      expect(tool).toMatchObject({ name: 'lookup', toolCallId: 'c1' })
      expect(tool.error).toBeUndefined()
    })

    it('reports a tool call that failed with its error', async () => {
      const agent = new ScriptedAgent(({ step }) =>
        step === 0 ? parts(call('c1', 'broken')) : parts(text('Sorry.'))
      )
      agent.addTool({
        name: 'broken',
        description: 'd',
        execute: () => {
          throw new Error('database down')
        },
      })
      const { tools } = await reportsOf(agent)
      expect(tools).toHaveLength(1)
      expect(tools[0]!.error).toContain('database down')
    })

    it('reports the retries of a call as entries of its one report, and the first token of the try that answered', async () => {
      const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
      const agent = new ScriptedAgent(({ attempt }) =>
        attempt === 0
          ? (async function* () {
              yield { type: 'reasoning' } as ModelStreamPart
              throw reset
            })()
          : parts(text('Recovered.'))
      )
      const { models } = await reportsOf(agent)
      expect(models).toHaveLength(1)
      const [report] = models as [ModelCallReport]
      expect(report.outcome).toBe('completed')
      expect(report.retries).toEqual([
        { at: expect.any(Number), attempt: 0, delayMs: expect.any(Number), error: reset },
      ])
      // The first token is the try's that answered, after the retry's wait (not the failed try's
      // reasoning). Timers count from the event loop's cached time, which lags performance.now()
      // on a busy machine: half the wait is the margin.
      expect(report.firstTokenAt! - report.retries[0]!.at).toBeGreaterThanOrEqual(
        report.retries[0]!.delayMs / 2
      )
    })

    it('reports a call that failed with its error, and one that was cancelled', async () => {
      const unauthorized = Object.assign(new Error('401 Incorrect API key'), { status: 401 })
      const failing = new ScriptedAgent(() =>
        (async function* () {
          throw unauthorized
        })()
      )
      failing.on('Failed', () => {})
      const failed = (await reportsOf(failing)).models
      expect(failed.map((r) => [r.outcome, r.error, r.firstTokenAt])).toEqual([
        ['failed', unauthorized, undefined],
      ])

      const slow = new ScriptedAgent(() => parts(text('Once upon'), text(' a time')))
      const models: ModelCallReport[] = []
      slow.on('ModelCallEnd', (report) => models.push(report))
      await cancelOnFirstChunk(slow)
      await delay(10)
      expect(models.map((r) => r.outcome)).toEqual(['cancelled'])
    })

    it('keeps answering when a report listener throws', async () => {
      const agent = new ScriptedAgent(() => parts(text('Fine.')))
      agent.logger = undefined
      agent.on('ModelCallEnd', () => {
        throw new Error('listener bug')
      })
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      expect(await readAll(agent.answer())).toBe('Fine.')
      expect(assistantTexts(agent)).toEqual(['Fine.'])
      expect(warn).toHaveBeenCalled()
      warn.mockRestore()
    })
  })
})
