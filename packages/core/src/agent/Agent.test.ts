import type { PassThrough } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import {
  brokenAgent,
  cancelOnFirstChunk,
  delay,
  readAll,
  recordEvents,
} from '../../test/helpers.js'
import { Logger } from '../logger/Logger.js'
import { Agent } from './Agent.js'
import type { MicdropConversationMessage } from '../conversation/types.js'
import type { AgentOptions } from './types.js'

/** Streams `words` with a pause between them and honours the abort signal, like a provider. */
class WordsAgent extends Agent {
  cancelCalls = 0
  lastSignal?: AbortSignal
  constructor(
    private readonly words: string[] = ['Hello', ' there'],
    options: Partial<AgentOptions> = {}
  ) {
    super({ systemPrompt: 'You are a test.', ...options })
  }
  protected async generateAnswer(stream: PassThrough, signal: AbortSignal) {
    this.lastSignal = signal
    let text = ''
    for (const word of this.words) {
      await delay(5)
      if (signal.aborted) return
      stream.write(word)
      text += word
    }
    this.addAssistantMessage(text)
  }
  cancel() {
    this.cancelCalls++
    this.abortAnswer()
  }
  get isAnswering() {
    return this.answering
  }
  get count() {
    return this.answerCount
  }
}

describe('Agent conversation', () => {
  it('starts with the system message', () => {
    const agent = new WordsAgent()
    expect(agent.conversation).toEqual([{ role: 'system', content: 'You are a test.' }])
  })

  it('adds user, assistant and system messages and emits Message for each', () => {
    const agent = new WordsAgent()
    const events = recordEvents(agent)
    agent.addUserMessage('Hi', { lang: 'en' })
    agent.addAssistantMessage('Hello!')
    agent.addMessage('system', 'Be brief.')
    expect(agent.conversation.slice(1)).toEqual([
      { role: 'user', content: 'Hi', metadata: { lang: 'en' } },
      { role: 'assistant', content: 'Hello!' },
      { role: 'system', content: 'Be brief.' },
    ])
    expect(events.map(([name, item]) => [name, (item as { content: string }).content])).toEqual([
      ['Message', 'Hi'],
      ['Message', 'Hello!'],
      ['Message', 'Be brief.'],
    ])
  })

  it('ignores empty and whitespace-only messages: no push, no event', () => {
    const agent = new WordsAgent()
    const events = recordEvents(agent)
    agent.addUserMessage('')
    agent.addAssistantMessage('  \n\t ')
    agent.addMessage('system', ' ')
    expect(agent.conversation).toHaveLength(1)
    expect(events).toEqual([])
  })

  it('records tool items and emits ToolMessage, not Message', () => {
    const agent = new WordsAgent()
    const events = recordEvents(agent)
    const call = {
      role: 'tool_call' as const,
      toolCallId: 'call_1',
      toolName: 'get_weather',
      parameters: JSON.stringify({ location: 'Paris' }),
    }
    const result = {
      role: 'tool_result' as const,
      toolCallId: 'call_1',
      toolName: 'get_weather',
      output: JSON.stringify({ temperature: 22 }),
    }
    agent.addToolMessage(call)
    agent.addToolMessage(result)
    expect(agent.conversation.slice(1)).toEqual([call, result])
    expect(events).toEqual([
      ['ToolMessage', call],
      ['ToolMessage', result],
    ])
  })

  it('updateMessage replaces an item by an updated copy, in place, without an event', () => {
    const agent = new WordsAgent()
    agent.addUserMessage('Book a table')
    agent.addAssistantMessage('Sure.')
    const [, user] = agent.conversation
    const events = recordEvents(agent)
    const updated = agent.updateMessage(user as MicdropConversationMessage, {
      content: 'Book a table for two.',
    })
    expect(updated).toEqual({ role: 'user', content: 'Book a table for two.' })
    expect(updated).not.toBe(user)
    expect(agent.conversation.map((item) => item.content)).toEqual([
      'You are a test.',
      'Book a table for two.',
      'Sure.',
    ])
    expect(user).toEqual({ role: 'user', content: 'Book a table' })
    expect(events).toEqual([])
    expect(agent.updateMessage(user as MicdropConversationMessage, { content: 'x' })).toBe(
      undefined
    )
  })

  it('removeMessage takes an item out of the conversation, once', () => {
    const agent = new WordsAgent()
    agent.addAssistantMessage('Nobody heard this.')
    const item = agent.conversation[1]!
    expect(agent.removeMessage(item)).toBe(true)
    expect(agent.removeMessage(item)).toBe(false)
    expect(agent.conversation).toEqual([{ role: 'system', content: 'You are a test.' }])
  })

  it('manages tools by name; adding a tool with an existing name replaces it', () => {
    const agent = new WordsAgent()
    const first = { name: 'lookup', description: 'v1', parameters: z.object({ q: z.string() }) }
    const second = { name: 'lookup', description: 'v2' }
    agent.addTool(first)
    expect(agent.getTool('lookup')).toBe(first)
    agent.addTool(second)
    expect(agent.tools.filter((tool) => tool.name === 'lookup')).toEqual([second])
    agent.removeTool('lookup')
    expect(agent.getTool('lookup')).toBeUndefined()
    agent.removeTool('does_not_exist')
    expect(agent.tools).toEqual([])
  })

  it('logs through an attached logger only', () => {
    const spy = vi.spyOn(console, 'log').mockImplementation(() => {})
    const lines: unknown[][] = []
    const agent = new WordsAgent()
    agent.addUserMessage('not logged')
    expect(spy).not.toHaveBeenCalled()
    agent.logger = new Logger('Test', (...line) => lines.push(line))
    agent.addUserMessage('logged')
    expect(
      lines.some((line) => String(line[0]).startsWith('[Test ') && line.includes('user: logged'))
    ).toBe(true)
    spy.mockRestore()
  })
})

describe('Agent.answer', () => {
  it('streams the answer, records it and ends the stream', async () => {
    const agent = new WordsAgent()
    const text = await readAll(agent.answer())
    expect(text).toBe('Hello there')
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'Hello there' })
    expect(agent.isAnswering).toBe(false)
    expect(agent.count).toBe(1)
  })

  it('runs onBeforeAnswer bound to the agent; true skips generation', async () => {
    let self: unknown
    const agent = new WordsAgent(['never'], {
      onBeforeAnswer(stream) {
        self = this
        stream.write('Canned answer.')
        return true
      },
    })
    expect(await readAll(agent.answer())).toBe('Canned answer.')
    expect(self).toBe(agent)
    expect(agent.conversation).toHaveLength(1)
  })

  it('generates normally when onBeforeAnswer returns false or nothing', async () => {
    const agent = new WordsAgent(['Hi'], { onBeforeAnswer: async () => false })
    expect(await readAll(agent.answer())).toBe('Hi')
    const other = new WordsAgent(['Hey'], { onBeforeAnswer: () => {} })
    expect(await readAll(other.answer())).toBe('Hey')
  })

  it('turns an error thrown by onBeforeAnswer into Failed and ends the stream', async () => {
    const error = new Error('hook broke')
    const agent = new WordsAgent(['never'], {
      onBeforeAnswer: async () => {
        throw error
      },
    })
    const failed = vi.fn()
    agent.on('Failed', failed)
    expect(await readAll(agent.answer())).toBe('')
    expect(failed).toHaveBeenCalledWith(error)
    expect(agent.isAnswering).toBe(false)
  })

  it('turns an error thrown by generateAnswer into Failed, never an unhandled rejection', async () => {
    class Broken extends Agent {
      protected async generateAnswer(stream: PassThrough) {
        stream.write('partial ')
        await delay(1)
        throw new Error('provider down')
      }
      cancel() {}
    }
    const agent = new Broken({ systemPrompt: 's' })
    const failed = vi.fn()
    agent.on('Failed', failed)
    expect(await readAll(agent.answer())).toBe('partial ')
    expect(failed).toHaveBeenCalledOnce()
    expect((failed.mock.calls[0]![0] as Error).message).toBe('provider down')
  })

  it('warns on the console when an answer fails and nobody listens or logs', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    await readAll(brokenAgent('lost otherwise').answer())
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('Broken'),
      'Answer failed:',
      expect.any(Error)
    )
    warn.mockRestore()
  })

  it('cancel() ends the stream at once, aborts the signal and records nothing', async () => {
    const agent = new WordsAgent(['one', ' two', ' three', ' four'])
    const stream = agent.answer()
    const chunks: string[] = []
    stream.on('data', (chunk) => {
      chunks.push(chunk.toString())
      if (chunks.length === 1) agent.cancel()
    })
    await new Promise((resolve) => stream.on('end', resolve))
    expect(chunks).toEqual(['one'])
    expect(agent.lastSignal?.aborted).toBe(true)
    expect(agent.cancelCalls).toBe(1)
    expect(agent.isAnswering).toBe(false)
    await delay(40)
    expect(agent.conversation.filter((item) => item.role === 'assistant')).toEqual([])
  })

  it('drops writes made after cancel instead of failing with "write after end"', async () => {
    let late: PassThrough | undefined
    class Late extends Agent {
      protected async generateAnswer(stream: PassThrough) {
        late = stream
        await delay(10)
        stream.write('too late')
        stream.end()
      }
      cancel() {
        this.abortAnswer()
      }
    }
    const agent = new Late({ systemPrompt: 's' })
    const stream = agent.answer()
    const errors: unknown[] = []
    stream.on('error', (error) => errors.push(error))
    const text = readAll(stream)
    await delay(1)
    expect(late).toBeDefined()
    agent.cancel()
    expect(await text).toBe('')
    await delay(20)
    expect(late?.write('even later')).toBe(true)
    expect(errors).toEqual([])
  })

  it('starts generating within answer(), and a cancel right after aborts it', async () => {
    const agent = new WordsAgent(['never'])
    const stream = agent.answer()
    expect(agent.lastSignal?.aborted).toBe(false)
    agent.cancel()
    expect(agent.lastSignal?.aborted).toBe(true)
    expect(await readAll(stream)).toBe('')
    expect(agent.conversation.map((item) => item.role)).toEqual(['system'])
  })

  it('does not start generating when cancelled while onBeforeAnswer runs', async () => {
    const agent = new WordsAgent(['never'], { onBeforeAnswer: () => delay(5) })
    const stream = agent.answer()
    agent.cancel()
    expect(await readAll(stream)).toBe('')
    await delay(10)
    expect(agent.lastSignal).toBeUndefined()
  })

  it('answers again right after a cancel', async () => {
    const agent = new WordsAgent(['A', 'B'])
    const first = agent.answer()
    agent.cancel()
    expect(await readAll(first)).toBe('')
    expect(await readAll(agent.answer())).toBe('AB')
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'AB' })
  })

  it("cancel() is the subclass's own: an agent written as in Micdrop's docs stops its own way", async () => {
    // As the docs write it: cancel() only moves answerCount, generateAnswer checks it
    class CountingAgent extends Agent {
      signal?: AbortSignal
      protected async generateAnswer(stream: PassThrough, signal: AbortSignal) {
        this.signal = signal
        const answerCount = this.answerCount
        for (const word of ['one', ' two', ' three']) {
          await delay(5)
          if (answerCount !== this.answerCount) return
          stream.write(word)
        }
        this.addAssistantMessage('one two three')
      }
      cancel(): void {
        if (!this.answering) return
        this.answerCount++
      }
    }
    const agent = new CountingAgent({ systemPrompt: 's' })
    expect(await cancelOnFirstChunk(agent)).toEqual(['one'])
    // Its own cancellation ran, not the base's: the signal was left alone
    expect(agent.signal?.aborted).toBe(false)
    expect(agent.conversation.map((item) => item.role)).toEqual(['system'])
    // A new answer() ends the previous one whatever cancel() does
    const first = agent.answer()
    const second = agent.answer()
    expect((first as PassThrough).writableEnded).toBe(true)
    expect(await readAll(second)).toBe('one two three')
  })

  it('a new answer() supersedes the running one', async () => {
    const agent = new WordsAgent(['x', 'y'])
    const first = agent.answer()
    const second = agent.answer()
    expect(await readAll(first)).toBe('')
    expect(await readAll(second)).toBe('xy')
    expect(agent.conversation.filter((item) => item.role === 'assistant')).toHaveLength(1)
  })

  it('destroy() cancels and removes every listener', async () => {
    const agent = new WordsAgent(['a', 'b'])
    agent.on('Message', () => {})
    const stream = agent.answer()
    agent.destroy()
    expect(await readAll(stream)).toBe('')
    expect(agent.listenerCount('Message')).toBe(0)
    expect(agent.cancelCalls).toBe(1)
  })
})
