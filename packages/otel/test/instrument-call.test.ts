import { describe, expect, it } from 'vitest'
import { MockAgent } from '@openmic/core'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import { MicdropServer } from '@openmic/server'
import { simulateCall, type CallScript } from '@openmic/testing/simulator'
import {
  LATENCY_BUCKETS_MS,
  TracedLogger,
  instrumentCall,
  type InstrumentCallOptions,
} from '../src/index.js'
import { betweenMs, createTelemetry, durationMs } from './telemetry.js'

const STT_MS = 150
const MODEL_MS = 300
const TTS_MS = 200

/** One simulated call (virtual time) with its server instrumented; its `Metrics` events. */
async function instrumentedCall(
  script: CallScript,
  options: InstrumentCallOptions,
  agent: () => MockAgent = () => new MockAgent({ answers: ['It is noon.'] })
) {
  const turns: MicdropTurnMetrics[] = []
  const result = await simulateCall(script, {
    server: (socket, parts) => {
      const server = new MicdropServer(socket, { ...parts, agent: agent() })
      instrumentCall(server, { conversationId: parts.conversationId, ...options })
      server.on('Metrics', (metrics) => turns.push(metrics))
      return server
    },
  })
  expect(result.violations).toEqual([])
  return { turns, result }
}

const askTheTime: CallScript = {
  tts: { firstAudioDelayMs: TTS_MS },
  steps: [
    { say: 'What time is it', stt: { pieces: [{ text: 'What time is it?', afterMs: STT_MS }] } },
    { waitFor: 'quiet' },
  ],
}
const modelTakes = (ms: number) => () =>
  new MockAgent({ answers: ['It is noon.'], firstWordDelayMs: ms })

/** The `openmic.interruptions` counter, by kind. */
async function interruptions(telemetry: ReturnType<typeof createTelemetry>) {
  const kind = (kind: string) =>
    telemetry.counter('openmic.interruptions', { 'openmic.interruption.kind': kind })
  return { real: await kind('real'), false: await kind('false') }
}

describe('instrumentCall', () => {
  it('gives a turn with scripted latencies spans and histogram points of the Metrics event', async () => {
    const telemetry = createTelemetry()
    const { turns } = await instrumentedCall(askTheTime, telemetry, modelTakes(MODEL_MS))
    expect(turns).toHaveLength(1)
    const metrics = turns[0]!
    // The scripted latencies, measured (virtual time: only the server's own steps in between).
    expect(metrics.sttMs).toBeCloseTo(STT_MS, -1)
    expect(metrics.agentFirstTextMs).toBeCloseTo(MODEL_MS, -1)
    expect(metrics.ttsFirstAudioMs).toBeCloseTo(TTS_MS, -1)

    // The spans' durations are the event's numbers (which are rounded to 0.01 ms).
    expect(durationMs(telemetry.span('openmic.stt'))).toBeCloseTo(metrics.sttMs!, 1)
    expect(durationMs(telemetry.span('openmic.tts'))).toBeCloseTo(metrics.ttsFirstAudioMs!, 1)
    const chat = telemetry.span('chat')
    const firstToken = chat.events.find((event) => event.name === 'gen_ai.first_token')!
    expect(betweenMs(chat.startTime, firstToken.time)).toBeCloseTo(metrics.agentFirstTextMs!, 1)
    const turn = telemetry.span('openmic.turn')
    const sent = turn.events.find((event) => event.name === 'openmic.first_audio_sent')!
    expect(betweenMs(turn.startTime, sent.time)).toBeCloseTo(metrics.endToEndMs!, 1)
    expect(turn.attributes).toMatchObject({
      'openmic.turn.number': 1,
      'openmic.turn.stt_ms': metrics.sttMs,
      'openmic.turn.agent_first_text_ms': metrics.agentFirstTextMs,
      'openmic.turn.tts_first_audio_ms': metrics.ttsFirstAudioMs,
      'openmic.turn.voice_to_voice_ms': metrics.endToEndMs,
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
    expect((await telemetry.histogram('openmic.turn.duration')).sum).toBeCloseTo(
      durationMs(turn),
      1
    )
    expect(await telemetry.counter('openmic.turns')).toBe(1)
  })

  it('puts the turn under the call span and its steps under the turn, with the call attributes', async () => {
    const telemetry = createTelemetry()
    await instrumentedCall(askTheTime, { ...telemetry, models: { agent: 'mock-1' } })
    const call = telemetry.span('openmic.call')
    const turn = telemetry.span('openmic.turn')
    expect(turn.parentSpanContext?.spanId).toBe(call.spanContext().spanId)
    for (const name of ['openmic.stt', 'chat mock-1', 'openmic.tts'])
      expect([name, telemetry.span(name).parentSpanContext?.spanId]).toEqual([
        name,
        turn.spanContext().spanId,
      ])
    expect(telemetry.span('chat mock-1').attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'MockAgent',
      'gen_ai.request.model': 'mock-1',
    })
    expect(call.attributes).toMatchObject({
      'gen_ai.conversation.id': 'simulated-call',
      'openmic.transport': 'MicdropServer',
      'gen_ai.provider.name': 'MockAgent',
      'openmic.stt.provider': 'SimulatedSTT',
      'openmic.tts.provider': 'TaggedTTS',
      'openmic.call.end_reason': 'restart', // the simulator drains the call at its end
      'openmic.call.close_code': 1012,
      'openmic.call.turns': 1,
    })
    // The call is over: no longer counted as active.
    expect(await telemetry.counter('openmic.calls.active')).toBe(0)
  })

  it.each(['openmic', 'micdrop'] as const)(
    'counts a barge-in that cut the answer as a real interruption (%s client)',
    async (client) => {
      const telemetry = createTelemetry()
      await instrumentedCall(
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
        () => new MockAgent({ answers: ['A long answer that goes on and on for a while.', 'Ok.'] })
      )
      expect(await interruptions(telemetry)).toEqual({ real: 1, false: 0 })
      const events = telemetry
        .span('openmic.call')
        .events.filter((e) => e.name === 'openmic.interruption')
      expect(events.map((e) => e.attributes?.['openmic.interruption.kind'])).toEqual(['real'])
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
      () => new MockAgent({ answers: ['A long answer that goes on and on for a while.'] })
    )
    expect(await interruptions(telemetry)).toEqual({ real: 0, false: 1 })
  })

  it('records a failing TTS on an error span and counts it by part and provider', async () => {
    const telemetry = createTelemetry()
    await instrumentedCall(
      { ...askTheTime, tts: { failures: [{ speak: 1, afterChunks: 0 }] } },
      telemetry
    )
    const failed = telemetry.span('openmic.tts')
    expect(failed.status.code).toBe(2) // SpanStatusCode.ERROR
    expect(failed.events.map((e) => e.name)).toContain('exception')
    expect(
      await telemetry.counter('openmic.failures', {
        'openmic.part': 'tts',
        'openmic.provider': 'TaggedTTS',
      })
    ).toBe(1)
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
