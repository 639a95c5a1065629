import type { MicdropConversationItem, MicdropTurnMetrics } from '@openmic/core/protocol'
import type { StoreCallReport, TurnReport } from '@openmic/server'
import { describe, expect, it } from 'vitest'
import { formatFailure, simulateCall, type CallScript } from '../../src/simulator/index.js'
import { fullScript } from '../../src/simulator/script.js'
import { defaultServer } from '../../src/simulator/simulate-call.js'

// The server's events for tracing (Turn, BargeIn with heardMs, StoreCall), on virtual time.

/** Runs the call on the default server, collecting its events; expects every invariant kept. */
async function run(script: CallScript) {
  const turns: TurnReport[] = []
  const metrics: MicdropTurnMetrics[] = []
  const bargeIns: Array<[string, number]> = []
  const storeCalls: StoreCallReport[] = []
  const result = await simulateCall(script, {
    server: (socket, parts) => {
      const server = defaultServer(socket, parts, fullScript(script))
      server.on('Turn', (report) => turns.push(report))
      server.on('Metrics', (turn) => metrics.push(turn))
      server.on('BargeIn', (verdict, heardMs) => bargeIns.push([verdict, heardMs]))
      server.on('StoreCall', (call) => storeCalls.push(call))
      return server
    },
  })
  expect(result.violations, formatFailure(script, result)).toEqual([])
  return { result, turns, metrics, bargeIns, storeCalls }
}

const heardOf = (items: MicdropConversationItem[]) =>
  items.flatMap((item) =>
    item.role === 'assistant' && item.metadata?.interrupted ? [item.metadata.heardMs] : []
  )

describe('Turn reports', () => {
  it.each([
    ['openmic', 'reported'],
    ['micdrop', 'estimated'],
  ] as const)(
    'reports an answer heard to its end with the Metrics numbers and its playback (%s client: %s)',
    async (client, source) => {
      const { turns, metrics } = await run({
        client,
        tts: { firstAudioDelayMs: 200 },
        steps: [{ say: 'What time is it' }, { waitFor: 'quiet' }],
      })
      expect(turns).toHaveLength(1)
      const [turn] = turns as [TurnReport]
      expect(turn.outcome).toBe('answered')
      expect(turn.metrics).toEqual(metrics[0])
      const { times, playback } = turn
      expect(playback).toMatchObject({
        source,
        heardMs: playback!.sentMs,
        startAt: times.firstSentAt,
      })
      // One clock, in order: stopped, answer asked, first text, first audio, sent, produced, heard.
      const order = [
        times.stopAt,
        times.requestedAt!,
        times.firstTextAt!,
        times.firstAudioAt!,
        times.firstSentAt!,
        times.producedAt!,
        playback!.endAt,
      ]
      expect(order).toEqual([...order].sort((a, b) => a - b))
      expect(times.endedAt).toBe(playback!.endAt)
      // Heard no earlier than its audio could play.
      expect(playback!.endAt - playback!.startAt).toBeGreaterThanOrEqual(playback!.sentMs)
    }
  )

  it.each(['openmic', 'micdrop'] as const)(
    'a barge-in tells how much of the answer was heard, as the cut message keeps it (%s client)',
    async (client) => {
      const { turns, bargeIns, result } = await run({
        client,
        steps: [
          { say: 'Tell me a story' },
          { waitFor: 'speech', thenMs: 400 },
          { say: 'Stop there please' },
          { waitFor: 'quiet' },
        ],
        agent: { answers: ['A long answer that goes on and on for quite a while.', 'Ok.'] },
      })
      const heard = heardOf(result.conversation.agent)
      expect(heard).toHaveLength(1)
      expect(bargeIns).toEqual([['interrupted', heard[0]]])
      expect(heard[0]).toBeGreaterThan(0)
      expect(turns.map((turn) => turn.outcome)).toEqual(['interrupted', 'answered'])
      expect(Math.round(turns[0]!.playback!.heardMs)).toBe(heard[0])
    }
  )

  // "Once upon a time." is 170 ms of audio. No latency, no prebuffer: the client's playback ends
  // when the server reckons it does. A user who speaks within a millisecond of that end heard it
  // all (the server's end-of-playback timer, in whole ms, may not have fired yet); 20 ms before
  // the end is a barge-in.
  it.each([
    [169, 'answered', []],
    [150, 'interrupted', [['interrupted', 150]]],
  ] as const)(
    'a Micdrop client speaking %i ms into a 170 ms answer: %s',
    async (thenMs, outcome, expectedBargeIns) => {
      const { turns, bargeIns } = await run({
        client: 'micdrop',
        latencyMs: 0,
        prebufferMs: 0,
        steps: [
          { say: 'Tell me a story' },
          { waitFor: 'speech', thenMs },
          { say: 'And then' },
          { waitFor: 'quiet' },
        ],
        agent: { answers: ['Once upon a time.', 'The end.'] },
      })
      expect(bargeIns).toEqual(expectedBargeIns)
      expect(turns.map((turn) => turn.outcome)).toEqual([outcome, 'answered'])
    }
  )

  it('reports a failed turn with what failed: the agent, the STT, the TTS', async () => {
    const agent = await run({
      agent: { answers: [{ error: 'model down' }] },
      steps: [{ say: 'Hello' }, { waitFor: 'quiet' }],
    })
    expect(agent.turns.map((turn) => [turn.outcome, turn.failure?.part])).toEqual([
      ['failed', 'agent'],
    ])
    expect((agent.turns[0]!.failure!.error as Error).message).toBe('model down')

    const stt = await run({
      steps: [{ say: 'Hello', stt: { pieces: [], failAfterMs: 100 } }, { waitFor: 'quiet' }],
    })
    expect(stt.turns.map((turn) => [turn.outcome, turn.failure?.part])).toEqual([['failed', 'stt']])
    const sttTurn = stt.turns[0]!
    expect(sttTurn.failure!.at - sttTurn.times.stopAt).toBeCloseTo(100, -1)

    const tts = await run({
      tts: { failures: [{ speak: 1, afterChunks: 0 }] },
      steps: [{ say: 'Hello' }, { waitFor: 'quiet' }],
    })
    expect(tts.turns.map((turn) => [turn.outcome, turn.failure?.part, turn.playback])).toEqual([
      ['failed', 'tts', undefined],
    ])
  })

  it('reports a turn of noise as skipped, and the false interruption it made with its heard ms', async () => {
    const { turns, bargeIns } = await run({
      steps: [
        { say: 'Tell me a story' },
        { waitFor: 'speech', thenMs: 200 },
        { cough: 300 },
        { waitFor: 'quiet' },
      ],
      agent: { answers: ['A long answer that goes on and on for a while.'] },
    })
    expect(bargeIns).toHaveLength(1)
    expect(bargeIns[0]![0]).toBe('resumed')
    expect(bargeIns[0]![1]).toBeGreaterThan(0)
    expect(turns.map((turn) => turn.outcome)).toEqual(['skipped', 'answered'])
  })

  it('puts the pause of a preemptive answer in its turn: answered from the pause, measured from the stop', async () => {
    const { turns } = await run({
      endSilenceMs: 200,
      server: { preemptive: true },
      agent: { firstWordDelayMs: 300 },
      steps: [{ waitFor: 'quiet' }, { say: 'What time is it' }, { waitFor: 'quiet' }],
    })
    expect(turns).toHaveLength(1)
    const { times } = turns[0]!
    expect(times.pausedAt).toBeDefined()
    expect(times.stopAt - times.pausedAt!).toBeCloseTo(200, -1)
    expect(times.requestedAt!).toBeLessThan(times.stopAt)
  })
})

describe('StoreCall', () => {
  it('reports each call to the store, a failed append with its error and its retry', async () => {
    const { storeCalls, result } = await run({
      store: { appendDelayMs: 30, failAppends: [2] },
      steps: [{ say: 'Hello' }, { waitFor: 'quiet' }],
    })
    expect(storeCalls[0]).toMatchObject({ operation: 'load' })
    const appends = storeCalls.filter((call) => call.operation === 'append')
    const failed = appends.filter((call) => call.error !== undefined)
    expect(failed.map((call) => call.index)).toEqual([1])
    // Each record stored once, in order, the failed one retried.
    const stored = appends.filter((call) => call.error === undefined).map((call) => call.index)
    expect(stored).toEqual(result.conversation.store.map((_, index) => index))
    for (const call of appends) expect(call.endAt - call.startAt).toBeCloseTo(30, -1)
  })
})
