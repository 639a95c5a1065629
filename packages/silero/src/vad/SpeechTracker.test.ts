import { describe, expect, it } from 'vitest'
import { SpeechTracker, type TrackedEvent } from './SpeechTracker.js'

const WINDOW = 512 // 32 ms

/** Runs one probability per 32 ms window through a tracker; returns the events. */
function track(probabilities: number[], settings = {}): TrackedEvent[] {
  const tracker = new SpeechTracker({
    threshold: 0.5,
    negativeThreshold: 0.35,
    minSpeechMs: 250,
    silenceMs: 600,
    ...settings,
  })
  const events: TrackedEvent[] = []
  probabilities.forEach((probability, i) => {
    const event = tracker.push(i * WINDOW, (i + 1) * WINDOW, probability)
    if (event) events.push(event)
  })
  return events
}

const repeat = (value: number, count: number) => Array<number>(count).fill(value)

describe('SpeechTracker', () => {
  it('starts speech once it lasted minSpeechMs, at its first window, and ends it after silenceMs', () => {
    // 8 windows = 256 ms of speech from window 3; 19 windows = 608 ms of silence from window 23.
    const events = track([...repeat(0, 3), ...repeat(0.9, 20), ...repeat(0.05, 19)])
    expect(events).toEqual([
      { type: 'SpeechStart', atMs: 96 },
      { type: 'SpeechEnd', atMs: 23 * 32 },
    ])
  })

  it('starts nothing for a sound shorter than minSpeechMs', () => {
    expect(track([...repeat(0.95, 7), ...repeat(0, 30)])).toEqual([])
  })

  it('keeps timing a candidate through a short dip, drops it after a longer one', () => {
    const dip = [...repeat(0.9, 4), ...repeat(0.1, 3), ...repeat(0.9, 2)]
    expect(track(dip)).toEqual([{ type: 'SpeechStart', atMs: 0 }])
    const gap = [...repeat(0.9, 4), ...repeat(0.1, 4), ...repeat(0.9, 2)]
    expect(track(gap)).toEqual([])
  })

  it('a window between the thresholds neither starts speech nor ends a silence', () => {
    expect(track(repeat(0.4, 40))).toEqual([])
    const events = track([...repeat(0.9, 10), 0.1, ...repeat(0.4, 18)])
    expect(events).toEqual([
      { type: 'SpeechStart', atMs: 0 },
      { type: 'SpeechEnd', atMs: 320 },
    ])
  })

  it('a pause shorter than silenceMs stays inside the speech', () => {
    const events = track([...repeat(0.9, 10), ...repeat(0, 15), ...repeat(0.9, 10)])
    expect(events).toEqual([{ type: 'SpeechStart', atMs: 0 }])
  })

  it('with pauseMs, reports a pause the speech resumes after, and one that becomes its end', () => {
    const events = track(
      [...repeat(0.9, 10), ...repeat(0, 8), ...repeat(0.9, 5), ...repeat(0, 19)],
      { pauseMs: 200 }
    )
    // 7 windows (224 ms) of silence make the pause; 19 (608 ms) the end
    expect(events).toEqual([
      { type: 'SpeechStart', atMs: 0 },
      { type: 'SpeechPause', atMs: 10 * 32 },
      { type: 'SpeechResume', atMs: 18 * 32 },
      { type: 'SpeechPause', atMs: 23 * 32 },
      { type: 'SpeechEnd', atMs: 23 * 32 },
    ])
  })

  it('with minSpeechMs 0, the first window above the threshold starts speech', () => {
    expect(track([0, 0.6], { minSpeechMs: 0 })).toEqual([{ type: 'SpeechStart', atMs: 32 }])
  })

  it('reset() forgets the speech in progress', () => {
    const tracker = new SpeechTracker({
      threshold: 0.5,
      negativeThreshold: 0.35,
      minSpeechMs: 0,
      silenceMs: 0,
    })
    expect(tracker.push(0, WINDOW, 0.9)?.type).toBe('SpeechStart')
    tracker.reset()
    expect(tracker.push(WINDOW, 2 * WINDOW, 0)).toBeUndefined()
  })
})
