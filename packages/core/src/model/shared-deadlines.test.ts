import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { SharedDeadlines, type Deadline } from './shared-deadlines.js'

/** A deadline `inMs` from now that records when it expired. */
function deadline(inMs: number, onExpire?: () => void) {
  const record = {
    at: performance.now() + inMs,
    expiredAt: undefined as number | undefined,
    expire() {
      record.expiredAt = performance.now()
      onExpire?.()
    },
  }
  return record
}

const refedTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length

describe('SharedDeadlines', () => {
  it('expires a deadline that was not removed, once it has passed, and only that one', async () => {
    const deadlines = new SharedDeadlines()
    const missed = deadline(20)
    const met = deadline(20)
    deadlines.add(missed)
    deadlines.add(met)
    deadlines.remove(met)
    await sleep(60)
    expect(missed.expiredAt).toBeGreaterThanOrEqual(missed.at)
    expect(met.expiredAt).toBeUndefined()
    expect(deadlines.size).toBe(0)
  })

  it('expires each deadline on time whatever the order they were added in', async () => {
    const deadlines = new SharedDeadlines()
    const late = deadline(120)
    const early = deadline(15) // earlier than the one the timer waits for: re-armed
    const middle = deadline(50) // later: waits for the timer to come back
    for (const d of [late, early, middle]) deadlines.add(d)
    await sleep(170)
    for (const d of [early, middle, late]) {
      expect(d.expiredAt).toBeGreaterThanOrEqual(d.at)
      expect(d.expiredAt! - d.at).toBeLessThan(40)
    }
  })

  it('watches a deadline added while another expires (a retry)', async () => {
    const deadlines = new SharedDeadlines()
    let retry: Deadline & { expiredAt?: number } = deadline(1000)
    const first = deadline(10, () => {
      retry = deadline(20)
      deadlines.add(retry)
    })
    deadlines.add(first)
    await sleep(70)
    expect(first.expiredAt).toBeDefined()
    expect(retry.expiredAt).toBeGreaterThanOrEqual(retry.at)
  })

  it('does not keep the process alive', () => {
    const deadlines = new SharedDeadlines()
    const before = refedTimers()
    deadlines.add(deadline(10_000))
    expect(refedTimers()).toBe(before)
  })
})
