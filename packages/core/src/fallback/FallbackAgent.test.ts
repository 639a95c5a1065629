import type { PassThrough } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import { delay, readAll, recordEvents } from '../../test/helpers.js'
import { Agent } from '../agent/Agent.js'
import { MockAgent } from '../mocks/MockAgent.js'
import { AllAgentsFailedError, FirstTokenTimeoutError } from '../retry/errors.js'
import { FallbackAgent } from './FallbackAgent.js'

class ThrowingAgent extends Agent {
  calls = 0
  constructor() {
    super({ systemPrompt: 'Throwing.' })
  }
  protected async generateAnswer() {
    this.calls++
    throw Object.assign(new Error('503 overloaded'), { status: 503 })
  }
  cancel() {}
}

class SilentAgent extends Agent {
  cancelled = false
  constructor() {
    super({ systemPrompt: 'Silent.' })
  }
  protected generateAnswer(_stream: PassThrough, signal: AbortSignal) {
    return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()))
  }
  cancel() {
    this.cancelled = true
    this.abortAnswer()
  }
}

describe('FallbackAgent', () => {
  it('answers with the first agent when it works, sharing its conversation', async () => {
    const first = new MockAgent({ systemPrompt: 'Primary prompt', answers: ['From the first.'] })
    const fallback = new FallbackAgent({
      factories: [() => first, () => new MockAgent({ answers: ['never'] })],
    })
    expect(fallback.conversation).toBe(first.conversation)
    expect(fallback.conversation[0]).toEqual({ role: 'system', content: 'Primary prompt' })
    fallback.addUserMessage('Hi')
    expect(await readAll(fallback.answer())).toBe('From the first.')
    expect(fallback.conversation.slice(1)).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'From the first.' },
    ])
  })

  it('switches to the next agent when the first fails before any text, for the same turn', async () => {
    const broken = new ThrowingAgent()
    const backup = new MockAgent({ answers: ['Backup answer.'] })
    const fallback = new FallbackAgent({ factories: [() => broken, () => backup] })
    const events = recordEvents(fallback)
    fallback.addUserMessage('Hello?')
    expect(await readAll(fallback.answer())).toBe('Backup answer.')
    expect(fallback.current).toBe(backup)
    expect(backup.conversation).toBe(fallback.conversation)
    expect(fallback.conversation.slice(1).map((item) => item.content)).toEqual([
      'Hello?',
      'Backup answer.',
    ])
    expect(events.map(([name]) => name)).toEqual(['Message', 'Message'])
    // it stays on the agent that works for the next turns
    fallback.addUserMessage('Again')
    expect(await readAll(fallback.answer())).toBe('Backup answer.')
    expect(broken.calls).toBe(1)
  })

  it('switches when the first agent emits Failed without throwing', async () => {
    const failing = new MockAgent({
      answers: [{ error: Object.assign(new Error('quota'), { status: 429 }) }],
      maxRetry: 0,
    })
    const fallback = new FallbackAgent({
      factories: [() => failing, () => new MockAgent({ answers: ['OK.'] })],
    })
    expect(await readAll(fallback.answer())).toBe('OK.')
  })

  it('switches when the first agent sends nothing within firstChunkTimeoutMs, and cancels it', async () => {
    const silent = new SilentAgent()
    const fallback = new FallbackAgent({
      factories: [() => silent, () => new MockAgent({ answers: ['Quick.'] })],
      firstChunkTimeoutMs: 30,
    })
    expect(await readAll(fallback.answer())).toBe('Quick.')
    expect(silent.cancelled).toBe(true)
  })

  it('does not switch once text was written, even if the agent then fails', async () => {
    const midway = new MockAgent({ answers: [{ text: 'Half an', error: new Error('reset') }] })
    const second = vi.fn(() => new MockAgent({ answers: ['never'] }))
    const fallback = new FallbackAgent({ factories: [() => midway, second] })
    const failed = vi.fn()
    fallback.on('Failed', failed)
    expect(await readAll(fallback.answer())).toBe('Half an')
    expect(second).not.toHaveBeenCalled()
    expect(failed).not.toHaveBeenCalled()
    expect(fallback.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'Half an',
      metadata: { incomplete: true },
    })
  })

  it('emits Failed once, with every error, only when all agents failed', async () => {
    const fallback = new FallbackAgent({
      factories: [() => new ThrowingAgent(), () => new ThrowingAgent()],
    })
    const failed = vi.fn()
    fallback.on('Failed', failed)
    expect(await readAll(fallback.answer())).toBe('')
    expect(failed).toHaveBeenCalledOnce()
    const error = failed.mock.calls[0]![0] as AllAgentsFailedError
    expect(error).toBeInstanceOf(AllAgentsFailedError)
    expect(error.errors).toHaveLength(2)
    expect(error.errors.map((e) => (e as { status: number }).status)).toEqual([503, 503])
  })

  it('shares tools with the next agent and re-emits its events', async () => {
    const backup = new MockAgent({ answers: [{ toolCalls: [{ name: 'end_call' }] }, 'Goodbye!'] })
    const fallback = new FallbackAgent({
      factories: [
        () =>
          new MockAgent({
            autoEndCall: true,
            answers: [{ error: new Error('down') }],
            maxRetry: 0,
          }),
        () => backup,
      ],
    })
    expect(fallback.tools.map((tool) => tool.name)).toEqual(['end_call'])
    const events = recordEvents(fallback)
    expect(await readAll(fallback.answer())).toBe('Goodbye!')
    expect(backup.tools).toBe(fallback.tools)
    expect(events.map(([name]) => name)).toEqual([
      'ToolMessage',
      'EndCall',
      'ToolMessage',
      'Message',
    ])
  })

  it('does not switch after a tool ran, so tools never run twice', async () => {
    const execute = vi.fn(() => 'charged')
    const first = new MockAgent({
      answers: [{ toolCalls: [{ name: 'charge' }] }, { error: new Error('down after tool') }],
      maxRetry: 0,
    })
    const second = vi.fn(() => new MockAgent({ answers: ['never'] }))
    const fallback = new FallbackAgent({ factories: [() => first, second] })
    fallback.addTool({ name: 'charge', description: 'd', execute })
    await readAll(fallback.answer())
    expect(execute).toHaveBeenCalledOnce()
    expect(second).not.toHaveBeenCalled()
  })

  it('cancel() cancels the child and ends the answer', async () => {
    const silent = new SilentAgent()
    const fallback = new FallbackAgent({ factories: [() => silent], firstChunkTimeoutMs: 10_000 })
    const stream = fallback.answer()
    await delay(5)
    fallback.cancel()
    expect(await readAll(stream)).toBe('')
    expect(silent.cancelled).toBe(true)
  })

  it('needs at least one factory', () => {
    expect(() => new FallbackAgent({ factories: [] })).toThrow(/at least one/)
  })

  it('reports a first-chunk timeout as FirstTokenTimeoutError when it was the last agent', async () => {
    const fallback = new FallbackAgent({
      factories: [() => new SilentAgent()],
      firstChunkTimeoutMs: 20,
    })
    const failed = vi.fn()
    fallback.on('Failed', failed)
    await readAll(fallback.answer())
    expect((failed.mock.calls[0]![0] as AllAgentsFailedError).errors[0]).toBeInstanceOf(
      FirstTokenTimeoutError
    )
  })
  it('never switches when firstChunkTimeoutMs is Infinity, however late the first chunk', async () => {
    const slow = new MockAgent({ answers: ['Slow but there.'], firstWordDelayMs: 60 })
    const fallback = new FallbackAgent({
      factories: [() => slow, () => new MockAgent({ answers: ['never'] })],
      firstChunkTimeoutMs: Infinity,
    })
    expect(await readAll(fallback.answer())).toBe('Slow but there.')
    expect(fallback.current).toBe(slow)
  })

  it('tells each switch (Fallback: from, to, error) and names the provider in use', async () => {
    const broken = new ThrowingAgent()
    const fallback = new FallbackAgent({
      factories: [() => broken, () => new MockAgent({ answers: ['Backup answer.'] })],
    })
    const switches: unknown[] = []
    fallback.on('Fallback', (fallback) => switches.push(fallback))
    expect(fallback.providerName).toBe('throwing')
    fallback.addUserMessage('Hello?')
    expect(await readAll(fallback.answer())).toBe('Backup answer.')
    expect(switches).toEqual([
      { from: 'throwing', to: 'mock', error: expect.objectContaining({ status: 503 }) },
    ])
    expect(fallback.providerName).toBe('mock')
  })

  it('forwards the model call reports of the agent in use, named after it', async () => {
    const fallback = new FallbackAgent({
      factories: [() => new MockAgent({ answers: ['Hi.'] })],
    })
    const providers: string[] = []
    fallback.on('ModelCallEnd', (report) => providers.push(report.provider))
    await readAll(fallback.answer())
    expect(providers).toEqual(['mock'])
  })
})
