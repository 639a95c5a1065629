import { describe, expect, it } from 'vitest'
import { FakeMic } from '../../test/fakes.js'
import { VolumeVAD } from './VolumeVAD.js'

function record(vad: VolumeVAD) {
  const events: string[] = []
  for (const name of [
    'StartSpeaking',
    'ConfirmSpeaking',
    'CancelSpeaking',
    'StopSpeaking',
  ] as const) {
    vad.on(name, () => events.push(name))
  }
  return events
}

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
    // A pause between words does not end the utterance
    mic.frames(20, -80)
    mic.frames(5, -20)
    mic.frames(29, -80)
    expect(events).toEqual(['StartSpeaking', 'ConfirmSpeaking'])
    mic.frames(1, -80)
    expect(events).toEqual(['StartSpeaking', 'ConfirmSpeaking', 'StopSpeaking'])
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
