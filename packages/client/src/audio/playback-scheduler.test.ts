import { describe, expect, it } from 'vitest'
import { PlaybackScheduler } from './playback-scheduler.js'

describe('PlaybackScheduler', () => {
  it('prebuffers the first chunk, then plays chunks back to back', () => {
    const scheduler = new PlaybackScheduler(50)
    expect(scheduler.schedule(10, 0.1)).toBeCloseTo(10.05)
    // Arriving early: queued right after the previous one, no gap
    expect(scheduler.schedule(10.01, 0.1)).toBeCloseTo(10.15)
    expect(scheduler.schedule(10.02, 0.1)).toBeCloseTo(10.25)
    expect(scheduler.endTime).toBeCloseTo(10.35)
  })

  it('prebuffers again after an underrun', () => {
    const scheduler = new PlaybackScheduler(50)
    scheduler.schedule(0, 0.1)
    expect(scheduler.schedule(1, 0.1)).toBeCloseTo(1.05)
  })

  it('starts over after reset (barge-in drops the queue)', () => {
    const scheduler = new PlaybackScheduler(50)
    scheduler.schedule(0, 5)
    scheduler.reset()
    expect(scheduler.schedule(0.2, 0.1)).toBeCloseTo(0.25)
  })
})
