import { describe, expect, it } from 'vitest'
import { MockAgent } from '@openmic/core'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import { MicdropServer } from '@openmic/server'
import { simulateCall } from '@openmic/testing/simulator'
import { LATENCY_BUCKETS_MS, TracedLogger, type InstrumentCallOptions } from '../src/index.js'
import { instrumentCall } from '../src/index.js'
import { askTheTime, instrumentedCall, MODEL_MS, STT_MS, TTS_MS } from './call.js'
import { betweenMs, createTelemetry, durationMs, within, type Telemetry } from './telemetry.js'

const modelTakes = (ms: number) => () =>
  new MockAgent({
    answers: [{ text: 'It is noon.', usage: { inputTokens: 321, outputTokens: 4 } }],
    firstWordDelayMs: ms,
  })

/** The `openmic.interruptions` counter, by kind. */
async function interruptions(telemetry: Telemetry) {
  const kind = (kind: string) =>
    telemetry.counter('openmic.interruptions', { 'openmic.interruption.kind': kind })
  return { real: await kind('real'), false: await kind('false') }
}

describe('instrumentCall', () => {
  it('gives a turn with scripted latencies spans and histogram points of the Metrics event', async () => {
    const telemetry = createTelemetry()
    const { turns } = await instrumentedCall(askTheTime, telemetry, { agent: modelTakes(MODEL_MS) })
    expect(turns).toHaveLength(1)
    const metrics = turns[0]!
    // The scripted latencies, measured (virtual time: only the server's own steps in between).
    expect(metrics.sttMs).toBeCloseTo(STT_MS, -1)
    expect(metrics.agentFirstTextMs).toBeCloseTo(MODEL_MS, -1)
    expect(metrics.ttsFirstAudioMs).toBeCloseTo(TTS_MS, -1)

    // The spans' durations are the event's numbers (which are rounded to 0.01 ms).
    expect(durationMs(telemetry.span('openmic.stt'))).toBeCloseTo(metrics.sttMs!, 1)
    expect(durationMs(telemetry.span('openmic.tts'))).toBeCloseTo(metrics.ttsFirstAudioMs!, 1)
    const agent = telemetry.span('invoke_agent')
    const firstText = agent.events.find((event) => event.name === 'openmic.first_text')!
    expect(betweenMs(agent.startTime, firstText.time)).toBeCloseTo(metrics.agentFirstTextMs!, 1)
    const turn = telemetry.span('openmic.turn')
    const sent = turn.events.find((event) => event.name === 'openmic.first_audio_sent')!
    expect(betweenMs(turn.startTime, sent.time)).toBeCloseTo(metrics.endToEndMs!, 1)
    expect(turn.attributes).toMatchObject({
      'openmic.turn.number': 1,
      'openmic.turn.outcome': 'answered',
      'openmic.turn.stt_ms': metrics.sttMs,
      'openmic.turn.agent_first_text_ms': metrics.agentFirstTextMs,
      'openmic.turn.tts_first_audio_ms': metrics.ttsFirstAudioMs,
      'openmic.turn.voice_to_voice_ms': metrics.endToEndMs,
    })
    // The model call: its time to first token is the model's scripted latency, its tokens the
    // provider's count.
    const chat = telemetry.span('chat')
    expect(chat.attributes['openmic.model.time_to_first_token_ms']).toBeCloseTo(MODEL_MS, -1)
    expect(chat.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 321,
      'gen_ai.usage.output_tokens': 4,
    })

    // One point per histogram, of the same value.
    for (const [name, value] of [
      ['openmic.turn.stt', metrics.sttMs],
      ['openmic.turn.model_first_text', metrics.agentFirstTextMs],
      ['openmic.turn.tts_first_audio', metrics.ttsFirstAudioMs],
      ['openmic.turn.voice_to_voice', metrics.endToEndMs],
    ] as const) {
      const point = await telemetry.histogram(name)
      expect([name, point.count, point.sum]).toEqual([name, 1, value])
      // Buckets for voice: tens of ms to seconds.
      expect(point.buckets.boundaries).toEqual(LATENCY_BUCKETS_MS)
    }
    // User stopped → the answer's production ended (the agent's span ends with it).
    expect((await telemetry.histogram('openmic.turn.duration')).sum).toBeCloseTo(
      betweenMs(telemetry.span('openmic.stt').startTime, agent.endTime),
      1
    )
    expect(await telemetry.counter('openmic.turns', { 'openmic.turn.outcome': 'answered' })).toBe(1)
    const tokens = await telemetry.points('gen_ai.client.token.usage')
    expect(
      tokens.map((point) => [
        point.attributes['gen_ai.token.type'],
        (point.value as { sum: number }).sum,
      ])
    ).toEqual([
      ['input', 321],
      ['output', 4],
    ])
  })

  it('puts the turn under the call span and its steps under the turn, with the call attributes', async () => {
    const telemetry = createTelemetry()
    await instrumentedCall(askTheTime, { ...telemetry, models: { agent: 'mock-1' } })
    const call = telemetry.span('openmic.call')
    const turn = telemetry.span('openmic.turn')
    expect(turn.parentSpanContext?.spanId).toBe(call.spanContext().spanId)
    expect(telemetry.children(turn).map((span) => span.name)).toEqual([
      'openmic.stt',
      'invoke_agent',
      'openmic.tts',
      'openmic.playback',
    ])
    const agent = telemetry.span('invoke_agent')
    expect(telemetry.children(agent).map((span) => span.name)).toEqual(['chat mock-1'])
    for (const span of telemetry.spans()) {
      // Every span of the call says what carries it, and lies within its parent.
      expect([span.name, span.attributes['openmic.transport']]).toEqual([
        span.name,
        'MicdropServer',
      ])
      const parent = telemetry
        .spans()
        .find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId)
      if (parent) expect([span.name, within(span, parent)]).toEqual([span.name, true])
    }
    // Provider names as the providers say them (core's mocks and the simulator's: by class name).
    expect(telemetry.span('chat mock-1').attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'mock',
      'gen_ai.request.model': 'mock-1',
      'openmic.model.step': 0,
      'openmic.model.outcome': 'completed',
    })
    expect(call.attributes).toMatchObject({
      'gen_ai.conversation.id': 'simulated-call',
      'openmic.transport': 'MicdropServer',
      'gen_ai.provider.name': 'mock',
      'openmic.stt.provider': 'simulated',
      'openmic.tts.provider': 'tagged',
      'openmic.call.end_reason': 'restart', // the simulator drains the call at its end
      'openmic.call.close_code': 1012,
      'openmic.call.turns': 1,
    })
  })

  it('counts the call as active while it goes on, and no longer once it ended', async () => {
    const telemetry = createTelemetry()
    const during: number[] = []
    await instrumentedCall(askTheTime, telemetry, {
      onServer: (server) =>
        server.on('Turn', () => {
          void telemetry.counter('openmic.calls.active').then((active) => during.push(active))
        }),
    })
    expect(during).toEqual([1])
    expect(await telemetry.counter('openmic.calls.active')).toBe(0)
  })

  it('ends the call when its transport closes, even if End never comes', async () => {
    const telemetry = createTelemetry()
    await instrumentedCall(askTheTime, telemetry, {
      // What an app removing the server's listeners would do: End reaches no one.
      onServer: (server) => server.on('Turn', () => server.removeAllListeners('End')),
    })
    expect(await telemetry.counter('openmic.calls.active')).toBe(0)
    expect(telemetry.span('openmic.call').attributes).toMatchObject({
      'openmic.call.close_code': 1012,
      'openmic.call.turns': 1,
    })
  })

  it.each(['openmic', 'micdrop'] as const)(
    'counts a barge-in that cut the answer as a real interruption (%s client)',
    async (client) => {
      const telemetry = createTelemetry()
      const { result } = await instrumentedCall(
        {
          client,
          steps: [
            // Over no answer yet: not an interruption.
            { say: 'Tell me a story' },
            { waitFor: 'speech', thenMs: 200 },
            { say: 'Stop there please' },
            { waitFor: 'quiet' },
          ],
        },
        telemetry,
        {
          agent: () =>
            new MockAgent({ answers: ['A long answer that goes on and on for a while.', 'Ok.'] }),
        }
      )
      expect(await interruptions(telemetry)).toEqual({ real: 1, false: 0 })
      // On the turn whose answer was cut, with how much of it was heard, as the conversation keeps it
      const [cut] = telemetry.named('openmic.turn')
      expect(cut!.attributes['openmic.turn.outcome']).toBe('interrupted')
      const events = cut!.events.filter((e) => e.name === 'openmic.interruption')
      const heard = result.conversation.agent.flatMap((item) =>
        item.role === 'assistant' && item.metadata?.interrupted ? [item.metadata.heardMs] : []
      )
      expect(events.map((e) => e.attributes)).toEqual([
        { 'openmic.interruption.kind': 'real', 'openmic.playback.heard_ms': heard[0] },
      ])
      const playback = telemetry.children(cut!).find((span) => span.name === 'openmic.playback')!
      expect(Math.round(playback.attributes['openmic.playback.heard_ms'] as number)).toBe(heard[0])
    }
  )

  it('counts a cough over the answer, which resumes it, as a false interruption', async () => {
    const telemetry = createTelemetry()
    await instrumentedCall(
      {
        steps: [
          { say: 'Tell me a story' },
          { waitFor: 'speech', thenMs: 200 },
          { cough: 300 },
          { waitFor: 'quiet' },
        ],
      },
      telemetry,
      {
        agent: () => new MockAgent({ answers: ['A long answer that goes on and on for a while.'] }),
      }
    )
    expect(await interruptions(telemetry)).toEqual({ real: 0, false: 1 })
    // The cough is a turn of its own, skipped; the answer it paused resumed and was heard.
    const turns = telemetry.named('openmic.turn')
    expect(turns.map((turn) => turn.attributes['openmic.turn.outcome'])).toEqual([
      'skipped',
      'answered',
    ])
    const [event] = turns[1]!.events.filter((e) => e.name === 'openmic.interruption')
    expect(event!.attributes!['openmic.interruption.kind']).toBe('false')
    expect(event!.attributes!['openmic.playback.heard_ms']).toBeGreaterThan(0)
  })

  it('with no SDK registered, leaves the call as it is and reports an invalid trace id', async () => {
    let traceId = ''
    const turns: MicdropTurnMetrics[] = []
    const result = await simulateCall(askTheTime, {
      server: (socket, parts) => {
        const server = new MicdropServer(socket, { ...parts, agent: new MockAgent() })
        traceId = instrumentCall(server).traceId
        server.on('Metrics', (metrics) => turns.push(metrics))
        return server
      },
    })
    expect(result.violations).toEqual([])
    expect(turns).toHaveLength(1)
    expect(traceId).toBe('0'.repeat(32))
  })
})

describe('TracedLogger', () => {
  /** The lines a call's TracedLogger wrote, and the call's trace id. */
  async function loggedCall(options: InstrumentCallOptions) {
    const lines: string[] = []
    let traceId = ''
    const result = await simulateCall(askTheTime, {
      server: (socket, parts) => {
        const logger = new TracedLogger('call', (prefix, ...message) =>
          lines.push([prefix, ...message].join(' '))
        )
        const server = new MicdropServer(socket, { ...parts, logger, agent: new MockAgent() })
        traceId = instrumentCall(server, { ...options, logger }).traceId
        return server
      },
    })
    expect(result.violations).toEqual([])
    return { lines, traceId }
  }

  it('puts the call span trace id on every line of the call once tracing is on', async () => {
    const telemetry = createTelemetry()
    const { lines, traceId } = await loggedCall(telemetry)
    expect(traceId).toBe(telemetry.span('openmic.call').spanContext().traceId)
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines)
      expect(line).toMatch(new RegExp(`^\\[call [\\d.]+\\] trace_id=${traceId} `))
  })

  it('leaves the lines as they are with tracing off', async () => {
    const { lines } = await loggedCall({})
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) expect(line).not.toContain('trace_id=')
  })
})
