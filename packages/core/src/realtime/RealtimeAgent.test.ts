import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { answer, msOf, speak, tick, utter } from '../../test/realtime-call.js'
import { MockRealtime, type MockRealtimeOptions } from '../mocks/MockRealtime.js'
import { MockTTS } from '../mocks/MockTTS.js'
import { ProviderError } from '../retry/ProviderError.js'
import type { ModelCallReport } from '../telemetry/reports.js'
import { RealtimeAgent, type RealtimeAgentOptions } from './RealtimeAgent.js'

function setup(model: MockRealtimeOptions = {}, options: Partial<RealtimeAgentOptions> = {}) {
  const mock = new MockRealtime(model)
  const agent = new RealtimeAgent({ model: mock, systemPrompt: 'Be brief.', ...options })
  return { mock, agent }
}

/** The model's memory, as `role:text` lines. */
const memory = (mock: MockRealtime) => mock.items.map((item) => `${item.role}:${item.text}`)

/** The agent's `ModelCallEnd` reports, as they come. */
function modelCalls(agent: RealtimeAgent): ModelCallReport[] {
  const reports: ModelCallReport[] = []
  agent.on('ModelCallEnd', (report) => reports.push(report))
  return reports
}

describe('RealtimeAgent: a turn', () => {
  it('transcribes the utterance, answers with the response asked for at its commit, plays its audio', async () => {
    const { mock, agent } = setup({ transcripts: ['What time is it?'], answers: ['It is noon.'] })
    expect(mock.configs[0]!.instructions).toBe('Be brief.')
    // Traced as the model's provider, whichever face
    expect([agent.providerName, agent.stt.providerName, agent.tts.providerName]).toEqual([
      'mock',
      'mock',
      'mock',
    ])
    const transcript = await utter(agent)
    expect(transcript).toBe('What time is it?')
    // Asked once, at the commit, before the call answered
    expect(mock.requests.map((request) => request.kind)).toEqual(['respond'])
    agent.addUserMessage(transcript)
    const voiced = await answer(agent)
    expect(voiced.end).toBe('AudioEnd')
    expect(voiced.text).toBe('It is noon.')
    expect(msOf(voiced.audio)).toBe('It is noon.'.length * 10)
    expect(mock.requests).toHaveLength(1)
    expect(agent.conversation.slice(1)).toEqual([
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: 'It is noon.' },
    ])
    expect(memory(mock)).toEqual(['user:What time is it?', 'assistant:It is noon.'])
  })

  it('asks once the transcript is in with answerEarly: false', async () => {
    const { mock, agent } = setup({ answers: ['Sure.'] }, { answerEarly: false })
    agent.addUserMessage(await utter(agent))
    expect(mock.requests).toHaveLength(0)
    expect((await answer(agent)).text).toBe('Sure.')
    expect(mock.requests).toHaveLength(1)
  })

  it('a noise (empty transcript) drops the response asked for it and the noise itself', async () => {
    const { mock, agent } = setup({ transcripts: [''] })
    expect(await utter(agent)).toBe('')
    await tick()
    expect(mock.active).toBeUndefined()
    agent.addUserMessage('Typed instead.')
    await answer(agent)
    // The noise's item is gone before the next response: the model never answers it
    expect(mock.requests.at(-1)!.conversation.map((item) => item.text)).toEqual(['Typed instead.'])
  })

  it('the user going on drops the response to their first words; both are answered once', async () => {
    const { mock, agent } = setup({
      transcripts: ['I would like', 'a coffee.'],
      answers: ['Sure.'],
    })
    const first = await utter(agent)
    agent.addUserMessage(first)
    const second = await utter(agent)
    // The server joins the words of one turn
    agent.updateMessage(agent.conversation.at(-1)!, { content: `${first} ${second}` })
    await answer(agent)
    expect(mock.requests).toHaveLength(2)
    expect(memory(mock)).toEqual(['user:I would like', 'user:a coffee.', 'assistant:Sure.'])
  })

  it('the first answer of a call (only the system prompt) is asked without tools', async () => {
    const { mock, agent } = setup({ answers: ['Hello!'] }, { autoEndCall: true })
    await answer(agent)
    expect(mock.requests[0]!.tools).toBe(false)
    expect(mock.configs[0]!.tools.map((tool) => tool.name)).toEqual(['end_call'])
  })
})

describe('RealtimeAgent: tools', () => {
  it('runs a function call with core tools, sends the result back and answers again', async () => {
    const { mock, agent } = setup({
      answers: [
        { text: 'Let me check.', toolCalls: [{ name: 'get_time', parameters: { tz: 'UTC' } }] },
        'It is noon.',
      ],
    })
    const execute = vi.fn(() => '12:00')
    agent.addTool({
      name: 'get_time',
      description: 'The time',
      parameters: z.object({ tz: z.string() }),
      execute,
      emitOutput: true,
    })
    const toolCalls = vi.fn()
    agent.on('ToolCall', toolCalls)
    agent.addUserMessage(await utter(agent))
    const voiced = await answer(agent)
    expect(voiced.text).toBe('Let me check. It is noon.')
    expect(execute).toHaveBeenCalledWith({ tz: 'UTC' }, agent)
    expect(toolCalls).toHaveBeenCalledWith({
      name: 'get_time',
      parameters: { tz: 'UTC' },
      output: '12:00',
    })
    expect(agent.conversation.slice(1).map((item) => item.role)).toEqual([
      'user',
      'assistant',
      'tool_call',
      'tool_result',
      'assistant',
    ])
    expect(mock.configs.at(-1)!.tools[0]).toMatchObject({ name: 'get_time' })
    // The second response saw the result; the model's memory is openmic's conversation
    expect(mock.requests[1]!.conversation.map((item) => item.role)).toEqual([
      'user',
      'assistant',
      'tool_call',
      'tool_result',
    ])
    expect(memory(mock)).toEqual([
      'user:User message 1',
      'assistant:Let me check.',
      'tool_call:{"tz":"UTC"}',
      'tool_result:"12:00"',
      'assistant:It is noon.',
    ])
  })

  it('autoEndCall: the end_call tool emits EndCall, and the goodbye is spoken', async () => {
    const { agent } = setup(
      { answers: [{ toolCalls: [{ name: 'end_call' }] }, 'Goodbye!'] },
      { autoEndCall: true }
    )
    const endCall = vi.fn()
    agent.on('EndCall', endCall)
    agent.addUserMessage(await utter(agent))
    expect((await answer(agent)).text).toBe('Goodbye!')
    expect(endCall).toHaveBeenCalledOnce()
  })

  it('extraction: the tag stays out of the answer text; the value is kept', async () => {
    const callback = vi.fn()
    const { agent } = setup(
      { answers: ['Thanks. <score>9</score>'] },
      { extract: { startTag: '<score>', endTag: '</score>', saveInMetadata: true, callback } }
    )
    agent.addUserMessage(await utter(agent))
    expect((await answer(agent)).text).toBe('Thanks. ')
    expect(callback).toHaveBeenCalledWith('9')
    expect(agent.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'Thanks.',
      metadata: { extracted: '9' },
    })
  })
})

describe('RealtimeAgent: what the user heard', () => {
  it('an answer cut mid-speech is truncated in the session at the heard position', async () => {
    const { mock, agent } = setup({ answers: ['One two three four five six.'], chunkDelayMs: 5 })
    agent.addUserMessage(await utter(agent))
    const voiced = await answer(agent, (so) => msOf(so.audio) >= 120)
    expect(agent.conversation.at(-1)!.role).toBe('user') // nothing saved: the answer was cut
    // What the server keeps of it (Answer.keepHeard): the heard words, flagged
    agent.addAssistantMessage('One two', {
      interrupted: true,
      fullContent: voiced.text,
      heardMs: 100,
    })
    await tick(20)
    const spoken = mock.items.find((item) => item.source === 'speech')!
    expect(spoken.truncatedAtMs).toBe(100)
    expect(mock.errors).toEqual([])
  })

  it('an answer heard in part after it was saved is truncated; one not heard at all is deleted', async () => {
    const { mock, agent } = setup({ answers: ['First answer here.', 'Second answer.'] })
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    const saved = agent.conversation.at(-1)!
    agent.updateMessage(saved, {
      content: 'First',
      metadata: { interrupted: true, fullContent: 'First answer here.', heardMs: 60 },
    })
    expect(mock.items.find((item) => item.source === 'speech')!.truncatedAtMs).toBe(60)
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    agent.removeMessage(agent.conversation.at(-1)!)
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    expect(memory(mock).filter((line) => line.startsWith('assistant'))).toEqual([
      'assistant:First ',
      'assistant:Second answer.',
    ])
  })

  it('what a cancelled answer said that the call did not keep leaves the session', async () => {
    const { mock, agent } = setup({
      answers: ['Never heard at all.', 'Heard.'],
      firstAudioDelayMs: 10,
      chunkDelayMs: 40,
    })
    agent.addUserMessage(await utter(agent))
    const stream = agent.answer()
    stream.resume()
    await tick(30)
    expect(mock.items.at(-1)).toMatchObject({ role: 'assistant', text: 'Never ' })
    agent.cancel() // cut with nothing played: the server keeps nothing of it
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    expect(memory(mock)).toEqual(['user:User message 1', 'user:User message 2', 'assistant:Heard.'])
  })
})

describe('RealtimeAgent: texts that are no answer', () => {
  it('the model says a first message word for word, out of the conversation; it joins it as text', async () => {
    const { mock, agent } = setup({}, { answerEarly: false })
    agent.addAssistantMessage('Welcome to the shop!') // the server records the first message
    const voiced = await speak(agent, 'Welcome to the shop!')
    expect(voiced.end).toBe('AudioEnd')
    expect(msOf(voiced.audio)).toBe('Welcome to the shop!'.length * 10)
    expect(mock.requests[0]).toMatchObject({ kind: 'say', text: 'Welcome to the shop!' })
    await utter(agent)
    expect(memory(mock)).toEqual(['assistant:Welcome to the shop!', 'user:User message 1'])
  })

  it('textTTS speaks them instead', async () => {
    const textTTS = new MockTTS()
    const { mock, agent } = setup({}, { textTTS })
    const voiced = await speak(agent, 'Hello from a TTS.')
    expect(textTTS.spokenText).toBe('Hello from a TTS.')
    expect(voiced.end).toBe('AudioEnd')
    expect(mock.requests).toEqual([])
  })

  it('a text the model does not start saying in time fails the TTS', async () => {
    const { agent } = setup({ firstAudioDelayMs: 1000 }, { firstAudioTimeoutMs: 40 })
    expect((await speak(agent, 'Hello.')).end).toBe('Failed')
  })
})

describe('RealtimeAgent: a resumed conversation', () => {
  it('seeds a new session with the history, in order, before the first user audio', async () => {
    const { mock, agent } = setup({ transcripts: ['And tomorrow?'], answers: ['Rain.'] })
    agent.conversation = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather today?' },
      { role: 'assistant', content: 'Sunny.' },
    ]
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    expect(memory(mock)).toEqual([
      'user:Weather today?',
      'assistant:Sunny.',
      'user:And tomorrow?',
      'assistant:Rain.',
    ])
  })
})

describe('RealtimeAgent: failures', () => {
  it('a response that failed before any text is asked again', async () => {
    const overloaded = new ProviderError('Mock', 'overloaded', { status: 503 })
    const { mock, agent } = setup({ answers: [{ error: overloaded }, 'Back.'] })
    agent.addUserMessage(await utter(agent))
    expect((await answer(agent)).text).toBe('Back.')
    expect(mock.requests).toHaveLength(2)
  })

  it('a response that fails for good fails the answer (Failed), with the provider error', async () => {
    const refused = new ProviderError('Mock', 'invalid request', { status: 400 })
    const { agent } = setup({ answers: [{ error: refused }] })
    const failed = vi.fn()
    agent.on('Failed', failed)
    agent.addUserMessage(await utter(agent))
    expect((await answer(agent)).text).toBe('')
    expect(failed).toHaveBeenCalledWith(refused)
  })

  it('a stalled response is cancelled after firstTokenTimeoutMs and asked again', async () => {
    const { mock, agent } = setup(
      { answers: [{ stall: true }, 'Here.'] },
      { firstTokenTimeoutMs: 40 }
    )
    agent.addUserMessage(await utter(agent))
    expect((await answer(agent)).text).toBe('Here.')
    expect(mock.requests).toHaveLength(2)
  })

  it('a dropped session: the next one is seeded with the conversation', async () => {
    const { mock, agent } = setup({ transcripts: ['One.', 'Two.'], answers: ['A.', 'B.'] })
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    mock.fail()
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    expect(mock.sessions).toBe(2)
    expect(memory(mock)).toEqual(['user:One.', 'assistant:A.', 'user:Two.', 'assistant:B.'])
    expect(mock.items.slice(0, 2).map((item) => item.source)).toEqual(['text', 'text'])
  })

  it('a transcript that never comes fails the utterance after transcriptTimeoutMs', async () => {
    const { agent } = setup({ transcriptDelayMs: 1000 }, { transcriptTimeoutMs: 30 })
    await expect(utter(agent)).rejects.toThrow(/no transcript within 30 ms/)
  })

  it('destroy() closes the session; nothing is emitted after', async () => {
    const { mock, agent } = setup({ transcriptDelayMs: 20 })
    const transcript = vi.fn()
    agent.stt.on('Transcript', transcript)
    void utter(agent).catch(() => {})
    await tick(5)
    agent.destroy()
    await tick(40)
    expect(transcript).not.toHaveBeenCalled()
    expect(mock.listenerCount('Failed')).toBe(0)
  })
})

describe('RealtimeAgent: model call reports', () => {
  it('a turn reports its response as one model call, with the usage its end gave', async () => {
    const usage = { inputTokens: 120, outputTokens: 35 }
    const { agent } = setup({ answers: [{ text: 'It is noon.', usage }], firstAudioDelayMs: 20 })
    const reports = modelCalls(agent)
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    expect(reports).toEqual([
      {
        step: 0,
        provider: 'mock',
        startAt: expect.any(Number),
        firstTokenAt: expect.any(Number),
        endAt: expect.any(Number),
        outcome: 'completed',
        retries: [],
        usage,
        toolCalls: 0,
      },
    ])
    const [report] = reports as [ModelCallReport]
    expect(report.startAt).toBeLessThanOrEqual(report.firstTokenAt!)
    expect(report.firstTokenAt).toBeLessThanOrEqual(report.endAt)
  })

  it('a tool round: one report per response, step 0 with its tool call, then step 1', async () => {
    const { agent } = setup({
      answers: [
        {
          text: 'Let me check.',
          toolCalls: [{ name: 'get_time' }],
          usage: { inputTokens: 100, outputTokens: 20 },
        },
        { text: 'It is noon.', usage: { inputTokens: 140, outputTokens: 8 } },
      ],
    })
    agent.addTool({ name: 'get_time', description: 'The time', execute: () => '12:00' })
    const reports = modelCalls(agent)
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    expect(
      reports.map(({ step, outcome, toolCalls, usage }) => ({ step, outcome, toolCalls, usage }))
    ).toEqual([
      {
        step: 0,
        outcome: 'completed',
        toolCalls: 1,
        usage: { inputTokens: 100, outputTokens: 20 },
      },
      { step: 1, outcome: 'completed', toolCalls: 0, usage: { inputTokens: 140, outputTokens: 8 } },
    ])
    expect(reports[0]!.endAt).toBeLessThanOrEqual(reports[1]!.startAt)
  })

  it('a barge-in reports the response cancelled; the next turn starts at step 0', async () => {
    const { agent } = setup({
      answers: ['One two three four five six.', 'Yes?'],
      chunkDelayMs: 5,
    })
    const reports = modelCalls(agent)
    agent.addUserMessage(await utter(agent))
    await answer(agent, (so) => msOf(so.audio) >= 120)
    await tick()
    expect(reports.map(({ step, outcome }) => ({ step, outcome }))).toEqual([
      { step: 0, outcome: 'cancelled' },
    ])
    expect(reports[0]!.firstTokenAt).toBeDefined()
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    expect(reports.map(({ step, outcome }) => ({ step, outcome }))).toEqual([
      { step: 0, outcome: 'cancelled' },
      { step: 0, outcome: 'completed' },
    ])
  })

  it('a failed response reports failed with its error and usage; once', async () => {
    const refused = new ProviderError('Mock', 'invalid request', { status: 400 })
    const { agent } = setup({
      answers: [{ error: refused, usage: { inputTokens: 90, outputTokens: 0 } }],
    })
    agent.on('Failed', () => {})
    const reports = modelCalls(agent)
    agent.addUserMessage(await utter(agent))
    await answer(agent)
    expect(reports).toMatchObject([
      { step: 0, outcome: 'failed', error: refused, usage: { inputTokens: 90, outputTokens: 0 } },
    ])
  })
})
