import { describe, expect, it, vi } from 'vitest'
import { EnergyVAD } from './EnergyVAD.js'
import type { VADSpeechEvent } from './VAD.js'

/** PCM16 16 kHz: `ms` of a 440 Hz tone at `amplitude`, or silence. */
function tone(ms: number, amplitude = 8000): Buffer {
  const pcm = Buffer.alloc(ms * 32)
  for (let i = 0; i < ms * 16; i++) {
    pcm.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * 440 * i) / 16000)), i * 2)
  }
  return pcm
}
const silence = (ms: number) => Buffer.alloc(ms * 32)

function record(vad: EnergyVAD) {
  const events: Array<[string, number]> = []
  vad.on('SpeechStart', ({ atMs }: VADSpeechEvent) => events.push(['start', atMs]))
  vad.on('SpeechEnd', ({ atMs }: VADSpeechEvent) => events.push(['end', atMs]))
  return events
}

describe('EnergyVAD', () => {
  it('finds where speech starts and ends, in positions of the audio', () => {
    const vad = new EnergyVAD({ minSpeechMs: 200, silenceMs: 600 })
    const events = record(vad)
    vad.process(Buffer.concat([silence(500), tone(1000), silence(1000), tone(400), silence(700)]))
    expect(events).toEqual([
      ['start', 500],
      ['end', 1500],
      ['start', 2500],
      ['end', 2900],
    ])
  })

  it('takes a sound shorter than minSpeechMs, or quieter than the threshold, for no speech', () => {
    const vad = new EnergyVAD({ minSpeechMs: 200, thresholdDb: -30 })
    const events = record(vad)
    vad.process(Buffer.concat([tone(100), silence(500), tone(1000, 200), silence(700)]))
    expect(events).toEqual([])
  })

  it('gives the same events for audio in odd-sized pieces as for audio at once', () => {
    const audio = Buffer.concat([silence(300), tone(700), silence(900)])
    const whole = new EnergyVAD()
    const wholeEvents = record(whole)
    whole.process(audio)
    const pieces = new EnergyVAD()
    const pieceEvents = record(pieces)
    for (let offset = 0; offset < audio.length; offset += 333) {
      pieces.process(audio.subarray(offset, offset + 333))
    }
    expect(pieceEvents).toEqual(wholeEvents)
    expect(wholeEvents).toHaveLength(2)
  })

  it('reset() forgets the speech in progress: no SpeechEnd for it', () => {
    const vad = new EnergyVAD()
    const events = record(vad)
    vad.process(tone(500))
    vad.reset()
    vad.process(silence(1000))
    expect(events).toEqual([['start', 0]])
  })

  it('with pauseMs, reports a pause that speech resumes, and one that becomes the end', () => {
    const vad = new EnergyVAD({ minSpeechMs: 200, silenceMs: 600, pauseMs: 200 })
    const events = record(vad)
    vad.on('SpeechPause', ({ atMs }) => events.push(['pause', atMs]))
    vad.on('SpeechResume', ({ atMs }) => events.push(['resume', atMs]))
    // A 300 ms gap (a pause, then more words), a 100 ms gap (no pause), then the end
    const audio = [tone(600), silence(300), tone(400), silence(100), tone(400), silence(800)]
    vad.process(Buffer.concat(audio))
    expect(events).toEqual([
      ['start', 0],
      ['pause', 600],
      ['resume', 900],
      ['pause', 1800],
      ['end', 1800],
    ])
  })

  it('without pauseMs, reports no pause', () => {
    const vad = new EnergyVAD({ silenceMs: 600 })
    const paused = vi.fn()
    vad.on('SpeechPause', paused)
    vad.process(Buffer.concat([tone(600), silence(400), tone(400), silence(800)]))
    expect(paused).not.toHaveBeenCalled()
  })

  it('refuses options that make no sense, naming them', () => {
    expect(() => new EnergyVAD({ silenceMs: 600, pauseMs: 600 })).toThrow(/pauseMs/)
    expect(() => new EnergyVAD({ silenceMs: -1 })).toThrow(/silenceMs/)
    expect(() => new EnergyVAD({ thresholdDb: 3 })).toThrow(/thresholdDb/)
  })
})
