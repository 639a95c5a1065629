import { describe, expect, it } from 'vitest'
import { FallbackAgent, MockAgent } from '@openmic/core'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { askTheTime, instrumentedCall } from './call.js'
import { createTelemetry, type Telemetry } from './telemetry.js'

// Errors on the span of the step that failed, under its turn; turns that failed before any audio
// still get their span and count; failures counted by the real provider.

const ERROR = 2 // SpanStatusCode.ERROR

/** The one turn span and the children of it named `name`. */
function failedStep(telemetry: Telemetry, name: string) {
  const turn = telemetry.span('openmic.turn')
  const steps = telemetry.children(turn).filter((span) => span.name === name)
  expect(steps).toHaveLength(1)
  return { turn, step: steps[0]! }
}

function expectError(span: ReadableSpan, message: string) {
  expect(span.status.code).toBe(ERROR)
  expect(span.status.message).toBe(message)
  const exception = span.events.find((event) => event.name === 'exception')
  expect(exception?.attributes?.['exception.message']).toBe(message)
}

async function failedTurns(telemetry: Telemetry) {
  return telemetry.counter('openmic.turns', { 'openmic.turn.outcome': 'failed' })
}

describe('failures', () => {
  it('an agent that fails before any text: an error on its model call, under a turn that counts as failed', async () => {
    const telemetry = createTelemetry()
    await instrumentedCall(askTheTime, telemetry, {
      agent: () => new MockAgent({ answers: [{ error: new Error('model down') }], maxRetry: 0 }),
    })
    const { turn, step } = failedStep(telemetry, 'invoke_agent')
    expectError(step, 'model down')
    expect(turn.attributes['openmic.turn.outcome']).toBe('failed')
    // The model call that failed says so too, under the agent's span.
    const [chat] = telemetry.children(step)
    expect(chat!.name).toBe('chat')
    expectError(chat!, 'model down')
    expect(await failedTurns(telemetry)).toBe(1)
    expect(
      await telemetry.counter('openmic.failures', {
        'openmic.part': 'agent',
        'openmic.provider': 'mock',
        'error.type': 'Error',
      })
    ).toBe(1)
    // No second span of the same failure elsewhere.
    expect(telemetry.spans().filter((span) => span.status.code === ERROR)).toHaveLength(2)
    // No Metrics event for a turn with no audio: its STT latency is recorded once it is over.
    const stt = await telemetry.histogram('openmic.turn.stt')
    expect(stt.count).toBe(1)
    expect(stt.sum).toBe(turn.attributes['openmic.turn.stt_ms'])
    expect(await telemetry.points('openmic.turn.voice_to_voice')).toEqual([])
  })

  it("an STT that fails: an error on the turn's STT span, the turn counted as failed", async () => {
    const telemetry = createTelemetry()
    await instrumentedCall(
      { steps: [{ say: 'Hello', stt: { pieces: [], failAfterMs: 120 } }, { waitFor: 'quiet' }] },
      telemetry
    )
    const { turn, step } = failedStep(telemetry, 'openmic.stt')
    expect(step.status.code).toBe(ERROR)
    expect(turn.attributes['openmic.turn.outcome']).toBe('failed')
    expect(step.attributes['openmic.stt.provider']).toBe('simulated')
    expect(await failedTurns(telemetry)).toBe(1)
    expect(
      await telemetry.counter('openmic.failures', {
        'openmic.part': 'stt',
        'openmic.provider': 'simulated',
      })
    ).toBe(1)
    expect(telemetry.spans().filter((span) => span.status.code === ERROR)).toHaveLength(1)
  })

  it("a TTS that fails before any audio: an error on the turn's TTS span", async () => {
    const telemetry = createTelemetry()
    await instrumentedCall(
      { ...askTheTime, tts: { failures: [{ speak: 1, afterChunks: 0 }] } },
      telemetry
    )
    const { turn, step } = failedStep(telemetry, 'openmic.tts')
    expect(step.status.code).toBe(ERROR)
    expect(step.events.map((e) => e.name)).toContain('exception')
    expect(turn.attributes['openmic.turn.outcome']).toBe('failed')
    expect(telemetry.children(turn).map((span) => span.name)).not.toContain('openmic.playback')
    expect(await failedTurns(telemetry)).toBe(1)
    expect(
      await telemetry.counter('openmic.failures', {
        'openmic.part': 'tts',
        'openmic.provider': 'tagged',
      })
    ).toBe(1)
    expect(telemetry.spans().filter((span) => span.status.code === ERROR)).toHaveLength(1)
  })

  it('a fallback taken: counted by the providers it switched between, an event on the turn', async () => {
    class PrimaryAgent extends MockAgent {}
    class BackupAgent extends MockAgent {}
    const telemetry = createTelemetry()
    await instrumentedCall(askTheTime, telemetry, {
      agent: () =>
        new FallbackAgent({
          factories: [
            () => new PrimaryAgent({ answers: [{ error: new Error('overloaded') }], maxRetry: 0 }),
            () => new BackupAgent({ answers: ['It is noon.'] }),
          ],
        }),
    })
    expect(
      await telemetry.counter('openmic.fallbacks', {
        'openmic.part': 'agent',
        'openmic.fallback.from': 'primary',
        'openmic.fallback.to': 'backup',
      })
    ).toBe(1)
    // The failure is the real provider's, not the fallback's.
    expect(await telemetry.counter('openmic.failures', { 'openmic.provider': 'primary' })).toBe(1)
    expect(await telemetry.counter('openmic.failures', { 'openmic.part': 'agent' })).toBe(1)
    const turn = telemetry.span('openmic.turn')
    expect(turn.attributes['openmic.turn.outcome']).toBe('answered')
    const fallback = turn.events.find((event) => event.name === 'openmic.fallback')
    expect(fallback?.attributes).toMatchObject({
      'openmic.fallback.from': 'primary',
      'openmic.fallback.to': 'backup',
    })
    // Each agent's model call, named after the provider that made it.
    const agent = telemetry.span('invoke_agent')
    expect(
      telemetry
        .children(agent)
        .map((span) => [span.attributes['gen_ai.provider.name'], span.status.code])
    ).toEqual([
      ['primary', ERROR],
      ['backup', 0],
    ])
  })

  it("store writes as spans, a failed one with its error, and the store's outage counted", async () => {
    const telemetry = createTelemetry()
    await instrumentedCall(
      { ...askTheTime, store: { failAppends: [1], appendDelayMs: 40 } },
      telemetry
    )
    const call = telemetry.span('openmic.call')
    const appends = telemetry.named('openmic.store.append')
    expect(appends.length).toBeGreaterThan(1)
    for (const append of appends)
      expect(append.parentSpanContext?.spanId).toBe(call.spanContext().spanId)
    const failed = appends.filter((span) => span.status.code === ERROR)
    expect(failed.map((span) => span.attributes['openmic.store.index'])).toEqual([0])
    expect(telemetry.named('openmic.store.load')).toHaveLength(1)
    expect(await telemetry.counter('openmic.failures', { 'openmic.part': 'store' })).toBe(1)
    expect(call.events.map((event) => event.name)).toContain('openmic.store_error')
  })
})
