import { describe, expect, it } from 'vitest'
import { FakeMic, recordVadEvents as record } from '../../test/fakes.js'
import { VolumeVAD } from './VolumeVAD.js'

describe('VolumeVAD', () => {
  it('confirms after 100 ms of loud frames and stops after 600 ms of quiet', async () => {
    const mic = new FakeMic()
    const vad = new VolumeVAD()
    const events = record(vad)
    await vad.start(mic)
    mic.frames(4, -20)
    expect(events).toEqual(['StartSpeaking'])
    mic.frames(1, -20)
    expect(events).toEqual(['StartSpeaking', 'ConfirmSpeaking'])
    // A pause between words does not end the utterance: it is a pause from 200 ms of quiet on
    mic.frames(9, -80)
    expect(events).toEqual(['StartSpeaking', 'ConfirmSpeaking'])
    mic.frames(11, -80)
    expect(events).toEqual(['StartSpeaking', 'ConfirmSpeaking', 'PauseSpeaking'])
    mic.frames(5, -20)
    mic.frames(29, -80)
    expect(events.slice(2)).toEqual(['PauseSpeaking', 'ResumeSpeaking', 'PauseSpeaking'])
    mic.frames(1, -80)
    expect(events.slice(2)).toEqual([
      'PauseSpeaking',
      'ResumeSpeaking',
      'PauseSpeaking',
      'StopSpeaking',
    ])
  })

  it('reports no pause with a pauseMs of stopMs or more, and none outside confirmed speech', async () => {
    const mic = new FakeMic()
    const vad = new VolumeVAD({ pauseMs: 600 })
    const events = record(vad)
    await vad.start(mic)
    mic.frames(5, -20)
    mic.frames(29, -80)
    mic.frames(1, -80)
    expect(events).toEqual(['StartSpeaking', 'ConfirmSpeaking', 'StopSpeaking'])
    const other = new VolumeVAD()
    const otherEvents = record(other)
    await other.start(mic)
    mic.frames(2, -20) // not confirmed
    mic.frames(20, -80)
    expect(otherEvents).toEqual(['StartSpeaking', 'CancelSpeaking'])
  })

  it('cancels a click too short to be speech', async () => {
    const mic = new FakeMic()
    const vad = new VolumeVAD()
    const events = record(vad)
    await vad.start(mic)
    mic.frames(2, -20)
    mic.frames(5, -80)
    expect(events).toEqual(['StartSpeaking', 'CancelSpeaking'])
  })

  it('ends the utterance when paused and ignores frames until resumed', async () => {
    const mic = new FakeMic()
    const vad = new VolumeVAD()
    const events = record(vad)
    await vad.start(mic)
    mic.frames(6, -20)
    vad.pause()
    mic.frames(10, -20)
    expect(events).toEqual(['StartSpeaking', 'ConfirmSpeaking', 'StopSpeaking'])
    vad.resume()
    mic.frames(5, -20)
    expect(events.slice(3)).toEqual(['StartSpeaking', 'ConfirmSpeaking'])
  })

  it('honours its threshold', async () => {
    const mic = new FakeMic()
    const vad = new VolumeVAD({ threshold: -10 })
    const events = record(vad)
    await vad.start(mic)
    mic.frames(10, -20)
    expect(events).toEqual([])
  })
})
