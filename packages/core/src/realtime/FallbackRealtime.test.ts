import { describe, expect, it, vi } from 'vitest'
import { answer, speak, utter } from '../../test/realtime-call.js'
import { MockRealtime } from '../mocks/MockRealtime.js'
import { ProviderError } from '../retry/ProviderError.js'
import { FallbackRealtime } from './FallbackRealtime.js'
import { RealtimeAgent } from './RealtimeAgent.js'

const memory = (mock: MockRealtime) => mock.items.map((item) => `${item.role}:${item.text}`)

function setup(first: MockRealtime, second: MockRealtime, firstOutputTimeoutMs?: number) {
  const model = new FallbackRealtime({
    factories: [() => first, () => second],
    firstOutputTimeoutMs,
  })
  const agent = new RealtimeAgent({ model, systemPrompt: 'Be brief.' })
  return { model, agent }
}

describe('FallbackRealtime', () => {
  it('a dropped session moves to the next model, seeded with the conversation', async () => {
    const first = new MockRealtime({ transcripts: ['Hello.'], answers: ['Hi there.'] })
    const second = new MockRealtime({ transcripts: ['Still there?'], answers: ['Yes.'] })
    const { model, agent } = setup(first, second)
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    first.fail()
    expect(model.current).toBe(second)
    agent.addUserMessage(await utter(agent))
    expect((await answer(agent)).text).toBe('Yes.')
    expect(second.configs[0]!.instructions).toBe('Be brief.')
    expect(memory(second)).toEqual([
      'user:Hello.',
      'assistant:Hi there.',
      'user:Still there?',
      'assistant:Yes.',
    ])
  })

  it('a response that fails before any output is answered by the next model in the same turn', async () => {
    const down = new ProviderError('Mock', 'server error', { status: 500 })
    const first = new MockRealtime({ answers: [{ error: down }] })
    const second = new MockRealtime({ answers: ['From the backup.'] })
    const { model, agent } = setup(first, second)
    const failed = vi.fn()
    agent.on('Failed', failed)
    agent.addUserMessage(await utter(agent))
    expect((await answer(agent)).text).toBe('From the backup.')
    expect(model.current).toBe(second)
    expect(failed).not.toHaveBeenCalled()
    // The user's words reached the backup as text: its session never heard them
    expect(memory(second)).toEqual(['user:User message 1', 'assistant:From the backup.'])
  })

  it('a response with no output within firstOutputTimeoutMs moves to the next model', async () => {
    const first = new MockRealtime({ answers: [{ stall: true }] })
    const second = new MockRealtime({ answers: ['Awake.'] })
    const { model, agent } = setup(first, second, 40)
    agent.addUserMessage(await utter(agent))
    expect((await answer(agent)).text).toBe('Awake.')
    expect(model.current).toBe(second)
  })

  it('a text said word for word is said again by the next model', async () => {
    const first = new MockRealtime({ firstAudioDelayMs: 1000 })
    const second = new MockRealtime()
    const { agent } = setup(first, second, 40)
    const voiced = await speak(agent, 'Welcome!')
    expect(voiced.end).toBe('AudioEnd')
    expect(second.requests).toMatchObject([{ kind: 'say', text: 'Welcome!' }])
  })

  it('Failed only once the last model failed', async () => {
    const first = new MockRealtime()
    const second = new MockRealtime()
    const { model } = setup(first, second)
    const failed = vi.fn()
    model.on('Failed', failed)
    first.fail()
    expect(failed).not.toHaveBeenCalled()
    second.fail()
    expect(failed).toHaveBeenCalledOnce()
  })
})
