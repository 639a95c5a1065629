import type { CallScript, UserStep } from './script.js'
import { simulateCall, type SimulateCallOptions, type SimulationResult } from './simulate-call.js'

export interface ShrinkOptions extends SimulateCallOptions {
  /** At most this many simulated calls (default 400). */
  maxRuns?: number
}

/**
 * The smallest script found that still fails as `script` does: steps, answers and options are
 * taken away or made simpler one at a time, each change kept while `stillFails` holds for the
 * replayed call. Deterministic, like the calls it replays.
 *
 * @example
 * const name = result.violations[0]!.name
 * const small = await shrinkScript(script, (r) => r.violations.some((v) => v.name === name))
 */
export async function shrinkScript(
  script: CallScript,
  stillFails: (result: SimulationResult) => boolean,
  options: ShrinkOptions = {}
): Promise<CallScript> {
  const { maxRuns = 400, ...simulate } = options
  let best = script
  let runs = 0
  for (let improved = true; improved && runs < maxRuns;) {
    improved = false
    for (const candidate of simpler(best)) {
      if (runs++ >= maxRuns) break
      if (stillFails(await simulateCall(candidate, simulate))) {
        best = candidate
        improved = true
        break
      }
    }
  }
  return best
}

/** Scripts one change simpler than `script`, the biggest cuts first. */
function* simpler(script: CallScript): Generator<CallScript> {
  const { steps } = script
  for (let i = steps.length - 1; i >= 0; i--) {
    yield { ...script, steps: steps.filter((_, index) => index !== i) }
  }
  const answers = script.agent?.answers ?? []
  for (let i = answers.length - 1; i >= 0 && answers.length > 1; i--) {
    yield {
      ...script,
      agent: { ...script.agent, answers: answers.filter((_, index) => index !== i) },
    }
  }
  for (const key of ['store', 'stt', 'tts', 'server'] as const) {
    if (script[key] !== undefined) yield without(script, key)
  }
  for (const section of ['server', 'agent', 'tts', 'store'] as const) {
    const options = script[section] as Record<string, unknown> | undefined
    for (const field of Object.keys(options ?? {})) {
      if (section === 'agent' && field === 'answers') continue
      const { [field]: _dropped, ...rest } = options!
      yield { ...script, [section]: rest }
    }
  }
  if (script.latencyMs) yield { ...script, latencyMs: 0 }
  if (script.prebufferMs) yield { ...script, prebufferMs: 0 }
  for (let i = 0; i < steps.length; i++) {
    for (const step of simplerStep(steps[i]!)) {
      yield { ...script, steps: steps.map((old, index) => (index === i ? step : old)) }
    }
  }
}

function* simplerStep(step: UserStep): Generator<UserStep> {
  if ('say' in step) {
    if (step.stt) yield without(step, 'stt')
    if (step.endWith) yield without(step, 'endWith')
    const words = step.say.split(' ')
    if (words.length > 1) yield { ...step, say: words.slice(0, -1).join(' ') }
    if (step.ms !== undefined && step.ms > 200) yield { ...step, ms: Math.round(step.ms / 2) }
  } else if ('cough' in step) {
    if (step.stt) yield without(step, 'stt')
  } else if ('pause' in step) {
    if (step.pause > 0) yield { pause: Math.floor(step.pause / 2) }
  } else if ('waitFor' in step) {
    if (step.thenMs) yield without(step, 'thenMs')
  }
}

function without<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = value
  return rest
}
