import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import { describe, expect, it } from 'vitest'
import {
  formatFailure,
  randomScript,
  simulateCall,
  type CallScript,
  type SimulationResult,
} from '../../src/simulator/index.js'
import { fullScript } from '../../src/simulator/script.js'
import { defaultServer } from '../../src/simulator/simulate-call.js'

// Preemptive answers: the server answers at the user's pause (the openmic client's
// PauseSpeaking) and holds all of the answer until StopSpeaking, on virtual time.

/** The client's end of speech comes this long after the user's last word. */
const PAUSE_TO_END_MS = 200

/** When the client got the first audio of `speak` (undefined: never). */
function firstAudioAt(result: SimulationResult, speak: number): number | undefined {
  const label = `audio of answer ${speak}`
  return result.timeline.find((entry) => entry.who === 'client' && entry.what.includes(label))?.atMs
}

/** When the server handled the client's `StopSpeaking` frames. */
function stopsHandledAt(result: SimulationResult): number[] {
  return result.timeline
    .filter((entry) => entry.who === 'server' && entry.what === '← StopSpeaking')
    .map((entry) => entry.atMs)
}

/** Runs the call on the default server, collecting its `Metrics`; expects every invariant kept. */
async function run(script: CallScript) {
  const metrics: MicdropTurnMetrics[] = []
  const result = await simulateCall(script, {
    server: (socket, parts) => {
      const server = defaultServer(socket, parts, fullScript(script))
      server.on('Metrics', (turn) => metrics.push(turn))
      return server
    },
  })
  expect(result.violations, formatFailure(script, result)).toEqual([])
  return { result, metrics }
}

function call(preemptive: boolean, steps: CallScript['steps']): CallScript {
  return {
    endSilenceMs: PAUSE_TO_END_MS,
    server: { preemptive },
    // A model that takes 300 ms to its first word: longer than the pause-to-end silence
    agent: { firstWordDelayMs: 300 },
    steps: [{ waitFor: 'quiet' }, ...steps, { waitFor: 'quiet' }],
  }
}

const ROLES = (result: SimulationResult) =>
  result.conversation.agent.map((item) => [item.role, 'content' in item ? item.content : ''])

describe('preemptive answers', () => {
  it('the answer plays no earlier than the confirmed end of the turn, and earlier than without by the pause-to-end gap', async () => {
    const steps: CallScript['steps'] = [{ say: 'what time is it', ms: 900 }]
    const on = await run(call(true, steps))
    const off = await run(call(false, steps))
    const [stopOn] = stopsHandledAt(on.result)
    const [stopOff] = stopsHandledAt(off.result)
    const audioOn = firstAudioAt(on.result, 1)!
    const audioOff = firstAudioAt(off.result, 1)!
    // Nothing of it reaches the client before the server knew the turn ended
    expect(audioOn).toBeGreaterThanOrEqual(stopOn!)
    // The model started at the pause: the wait for the end of the turn is saved
    const saved = audioOff - audioOn
    expect(saved).toBeGreaterThan(PAUSE_TO_END_MS - 40)
    expect(saved).toBeLessThanOrEqual(PAUSE_TO_END_MS + 40)
    // Same call otherwise: one answer, whole, the same conversation
    expect(ROLES(on.result)).toEqual(ROLES(off.result))
    expect(on.metrics).toHaveLength(1)
    // Counted from the confirmed end, as without preemption
    expect(on.metrics[0]!.endToEndMs!).toBeLessThan(off.metrics[0]!.endToEndMs!)
  })

  it('a user who goes on after a pause gets one answer to the whole turn; the dropped one leaves no trace', async () => {
    const { result, metrics } = await run({
      ...call(true, [
        { say: 'book a table', ms: 900 },
        { pause: 150 },
        { say: 'for two', ms: 600 },
      ]),
      // A fast model: the answer to "book a table" is complete, and held, when the user goes on
      agent: { firstWordDelayMs: 50 },
    })
    const whole: Array<[string, string]> = [
      ['user', 'book a table for two'],
      ['assistant', 'You said: "book a table for two"'],
    ]
    expect(ROLES(result)).toEqual(whole)
    const roles = (items: typeof result.conversation.client) =>
      items.map((item) => [item.role, 'content' in item ? item.content : ''])
    expect(roles(result.conversation.client)).toEqual(whole)
    expect(roles(result.conversation.store)).toEqual(whole)
    // The first answer was produced (agent and TTS) but nothing of it went out
    const [dropped, kept] = result.answers
    expect(dropped).toMatchObject({ speak: 1, text: 'You said: "book a table"', receivedMs: 0 })
    expect(firstAudioAt(result, 1)).toBeUndefined()
    expect(kept).toMatchObject({ speak: 2, complete: true })
    const sent = result.timeline.filter(
      (entry) => entry.who === 'server' && entry.what.startsWith('→')
    )
    expect(sent.filter((entry) => entry.what.includes('"book a table"'))).toEqual([])
    expect(sent.filter((entry) => entry.what.startsWith('→ CancelLastUserMessage'))).toEqual([])
    expect(sent.filter((entry) => entry.what.startsWith('→ SkipAnswer')).length).toBe(1) // the call's open
    expect(metrics).toHaveLength(1)
  })

  it('words still being transcribed when the turn ends: one user message, never replaced', async () => {
    const { result } = await run({
      ...call(true, [
        { say: 'book a table', ms: 900 },
        { pause: 150 },
        // Its text comes 400 ms after its audio ended, after the client's end of speech (200 ms)
        { say: 'for two', ms: 600, stt: { pieces: [{ text: 'for two', afterMs: 400 }] } },
      ]),
      agent: { firstWordDelayMs: 50 },
    })
    const whole: Array<[string, string]> = [
      ['user', 'book a table for two'],
      ['assistant', 'You said: "book a table for two"'],
    ]
    const roles = (items: typeof result.conversation.client) =>
      items.map((item) => [item.role, 'content' in item ? item.content : ''])
    expect(ROLES(result)).toEqual(whole)
    // The first words' message waited for the rest: it was neither shown nor stored alone
    expect(roles(result.conversation.store)).toEqual(whole)
    const sent = result.timeline.filter(
      (entry) => entry.who === 'server' && entry.what.startsWith('→')
    )
    expect(sent.filter((entry) => entry.what.startsWith('→ CancelLastUserMessage'))).toEqual([])
    expect(sent.filter((entry) => entry.what.includes('"book a table"'))).toEqual([])
  })

  it('a barge-in over a preemptive answer cuts it as any answer', async () => {
    await run({
      ...call(true, [
        { say: 'tell me a story', ms: 900 },
        { waitFor: 'speech', thenMs: 300 },
        { say: 'stop', ms: 400 },
      ]),
      agent: {
        firstWordDelayMs: 300,
        answers: ['Once upon a time there was a voice agent that answered before you finished.'],
      },
    })
  })

  it('random calls keep every invariant with preemptive answers on', async () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const base = randomScript(seed, { client: seed % 4 === 0 ? 'micdrop' : 'openmic' })
      const script: CallScript = {
        ...base,
        endSilenceMs: 100 + (seed % 3) * 150,
        server: { ...base.server, preemptive: true },
      }
      const result = await simulateCall(script)
      expect(result.violations, formatFailure(script, result)).toEqual([])
    }
  }, 120_000)
})
