import { expect, it } from 'vitest'
import {
  formatFailure,
  randomScript,
  shrinkScript,
  simulateCall,
  type CallScript,
  type ViolationName,
} from '../../src/simulator/index.js'

/** Random calls per client kind and test run (`SIMULATOR_CALLS` changes it). */
export const RANDOM_CALLS = Number(process.env.SIMULATOR_CALLS ?? 2000)

/**
 * Runs `calls` random calls (seeds `1..calls`) with one kind of client. Returns how many calls
 * broke each invariant, and for each broken invariant the smallest script found that still breaks
 * it, as `formatFailure` prints it (timeline and replayable JSON).
 */
export async function runRandomCalls(client: 'openmic' | 'micdrop', calls = RANDOM_CALLS) {
  const broken = new Map<ViolationName, { count: number; seed: number; script: CallScript }>()
  const started = performance.now()
  for (let seed = 1; seed <= calls; seed++) {
    const script = randomScript(seed, { client })
    const result = await simulateCall(script)
    for (const name of new Set(result.violations.map((violation) => violation.name))) {
      const entry = broken.get(name) ?? { count: 0, seed, script }
      entry.count++
      broken.set(name, entry)
    }
  }
  const seconds = (performance.now() - started) / 1000
  const reports: string[] = []
  for (const [name, { seed, script }] of broken) {
    const breaks = (violations: Array<{ name: ViolationName }>) =>
      violations.some((v) => v.name === name)
    const small = await shrinkScript(script, (result) => breaks(result.violations), {
      maxRuns: 120,
    })
    const result = await simulateCall(small)
    const own = { ...result, violations: result.violations.filter((v) => v.name === name) }
    reports.push(`── ${name}: first in seed ${seed}, shrunk:\n${formatFailure(small, own)}`)
  }
  const counts = Object.fromEntries([...broken].map(([name, { count }]) => [name, count]))
  return { counts, reports, seconds }
}

/** The property test: {@link RANDOM_CALLS} random calls with `client` keep every invariant. */
export function itKeepsEveryInvariant(client: 'openmic' | 'micdrop'): void {
  it(`${RANDOM_CALLS} random calls with the ${client} client keep every invariant`, async () => {
    const { counts, reports, seconds } = await runRandomCalls(client)
    const rate = Math.round(RANDOM_CALLS / seconds)
    console.info(`${client}: ${RANDOM_CALLS} calls in ${seconds.toFixed(1)} s (${rate} calls/s)`)
    expect(counts, reports.join('\n\n')).toEqual({})
  }, 300_000)
}
