import { describe, expect, it } from 'vitest'
import { MockAgent } from '@openmic/core'
import { askTheTime, instrumentedCall } from './call.js'
import { betweenMs, createTelemetry, durationMs, hrMs, within } from './telemetry.js'

// The children of a turn: each model call and tool call of the agent, the playback, and a
// preemptive answer's turn.

const ERROR = 2 // SpanStatusCode.ERROR

describe('model and tool calls', () => {
  it('one chat span per model call of the step loop, tool calls between them, with usage and errors', async () => {
    const telemetry = createTelemetry()
    const agent = () => {
      const mock = new MockAgent({
        answers: [
          {
            text: 'Let me check.',
            toolCalls: [{ name: 'lookup' }, { name: 'broken' }],
            usage: { inputTokens: 200, outputTokens: 12 },
          },
          { text: 'It is noon.', usage: { inputTokens: 260, outputTokens: 5 } },
        ],
      })
      mock.addTool({
        name: 'lookup',
        description: 'Looks the time up',
        execute: () => new Promise((resolve) => setTimeout(() => resolve('noon'), 80)),
      })
      mock.addTool({
        name: 'broken',
        description: 'Always fails',
        execute: () => {
          throw new Error('no clock')
        },
      })
      return mock
    }
    await instrumentedCall(askTheTime, { ...telemetry, models: { agent: 'm-1' } }, { agent })
    const invoke = telemetry.span('invoke_agent')
    const steps = telemetry.children(invoke)
    expect(steps.map((span) => span.name)).toEqual([
      'chat m-1',
      'execute_tool lookup',
      'execute_tool broken',
      'chat m-1',
    ])
    const [first, lookup, broken, second] = steps as [
      (typeof steps)[0],
      (typeof steps)[0],
      (typeof steps)[0],
      (typeof steps)[0],
    ]
    expect([first, second].map((span) => span.attributes)).toMatchObject([
      {
        'openmic.model.step': 0,
        'gen_ai.usage.input_tokens': 200,
        'gen_ai.usage.output_tokens': 12,
      },
      {
        'openmic.model.step': 1,
        'gen_ai.usage.input_tokens': 260,
        'gen_ai.usage.output_tokens': 5,
      },
    ])
    // In order on one clock: the call, its tools, the next call.
    expect(hrMs(first.endTime)).toBeLessThanOrEqual(hrMs(lookup.startTime))
    expect(hrMs(broken.endTime)).toBeLessThanOrEqual(hrMs(second.startTime))
    expect(durationMs(lookup)).toBeCloseTo(80, -1)
    expect(lookup.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
    })
    expect(lookup.status.code).not.toBe(ERROR)
    expect(broken.status.code).toBe(ERROR)
    expect(broken.status.message).toContain('no clock')
    for (const span of steps) expect(within(span, invoke)).toBe(true)
  })

  it('a model call cancelled by a barge-in, which reports after its turn is over, lands in that turn', async () => {
    const telemetry = createTelemetry()
    await instrumentedCall(
      {
        steps: [
          { say: 'Tell me a story' },
          { waitFor: 'speech', thenMs: 200 },
          { say: 'Stop there please' },
          { waitFor: 'quiet' },
        ],
      },
      telemetry,
      {
        agent: () =>
          new MockAgent({
            answers: ['Once upon a time there was a very long story to tell.', 'Ok.'],
            wordDelayMs: 150,
          }),
      }
    )
    const [cut] = telemetry.named('openmic.turn')
    expect(cut!.attributes['openmic.turn.outcome']).toBe('interrupted')
    const [invoke] = telemetry.children(cut!).filter((span) => span.name === 'invoke_agent')
    const calls = telemetry.children(invoke!)
    expect(calls.map((span) => [span.name, span.attributes['openmic.model.outcome']])).toEqual([
      ['chat', 'cancelled'],
    ])
    // It ended after the turn did: its report came late.
    expect(hrMs(calls[0]!.endTime)).toBeGreaterThanOrEqual(hrMs(cut!.endTime))
  })

  it('the retries of a model call as events of its one span', async () => {
    const telemetry = createTelemetry()
    let calls = 0
    const agent = () =>
      new MockAgent({
        maxRetry: 1,
        answers: () =>
          calls++ === 0
            ? { error: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) }
            : 'It is noon.',
      })
    await instrumentedCall(askTheTime, telemetry, { agent })
    const chat = telemetry.span('chat')
    const retries = chat.events.filter((event) => event.name === 'openmic.retry')
    expect(retries.map((event) => event.attributes)).toEqual([
      {
        'openmic.retry.attempt': 0,
        'openmic.retry.delay_ms': expect.any(Number),
        'error.type': 'Error',
        'exception.message': 'socket hang up',
      },
    ])
    expect(chat.status.code).not.toBe(ERROR)
    // The first token is the retry's, after the wait.
    const firstToken = chat.events.find((event) => event.name === 'gen_ai.first_token')!
    const delay = retries[0]!.attributes!['openmic.retry.delay_ms'] as number
    expect(betweenMs(retries[0]!.time, firstToken.time)).toBeGreaterThanOrEqual(delay - 1)
  })
})

describe('playback', () => {
  it.each([
    ['openmic', 'reported'],
    ['micdrop', 'estimated'],
  ] as const)(
    'spans first audio sent to heard, ending as the %s client lets it know (%s)',
    async (client, source) => {
      const telemetry = createTelemetry()
      await instrumentedCall({ ...askTheTime, client }, telemetry)
      const playback = telemetry.span('openmic.playback')
      const turn = telemetry.span('openmic.turn')
      const sent = turn.events.find((event) => event.name === 'openmic.first_audio_sent')!
      expect(playback.startTime).toEqual(sent.time)
      expect(playback.attributes['openmic.playback.source']).toBe(source)
      const sentMs = playback.attributes['openmic.playback.sent_ms'] as number
      expect(playback.attributes['openmic.playback.heard_ms']).toBe(sentMs)
      // Heard no earlier than its audio plays, and the turn is over then.
      expect(durationMs(playback)).toBeGreaterThanOrEqual(sentMs)
      expect(playback.endTime).toEqual(turn.endTime)
    }
  )
})

describe('preemptive answers', () => {
  it('the turn starts at the pause its answer started at, and every step lies within it', async () => {
    const telemetry = createTelemetry()
    const { turns } = await instrumentedCall(
      {
        endSilenceMs: 200,
        steps: [{ waitFor: 'quiet' }, { say: 'What time is it' }, { waitFor: 'quiet' }],
      },
      telemetry,
      {
        agent: () => new MockAgent({ answers: ['It is noon.'], firstWordDelayMs: 300 }),
        server: { preemptive: true },
      }
    )
    const turn = telemetry.span('openmic.turn')
    expect(turn.attributes['openmic.turn.preemptive']).toBe(true)
    const children = telemetry.children(turn)
    expect(children.map((span) => span.name)).toEqual([
      'openmic.stt',
      'invoke_agent',
      'openmic.tts',
      'openmic.playback',
    ])
    for (const span of [...children, ...telemetry.children(telemetry.span('invoke_agent'))])
      expect([span.name, within(span, turn)]).toEqual([span.name, true])
    // The answer started at the pause, 200 ms before the end of the turn was confirmed; the
    // turn's voice-to-voice latency counts from the confirmation, as Metrics does.
    const stopped = turn.events.find((event) => event.name === 'openmic.user_stopped')!
    const invoke = telemetry.span('invoke_agent')
    expect(betweenMs(invoke.startTime, stopped.time)).toBeGreaterThan(150)
    const sent = turn.events.find((event) => event.name === 'openmic.first_audio_sent')!
    expect(betweenMs(stopped.time, sent.time)).toBeCloseTo(turns[0]!.endToEndMs!, 1)
  })
})
