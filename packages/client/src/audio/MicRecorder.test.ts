import { describe, expect, it } from 'vitest'
import { FakeMic } from '../../test/fakes.js'
import { MicRecorder } from './MicRecorder.js'
import { concatPcm16 } from './pcm.js'

function setup() {
  const mic = new FakeMic()
  const recorder = new MicRecorder('volume')
  const events: Array<string | Int16Array> = []
  recorder.on('StartSpeaking', () => events.push('StartSpeaking'))
  recorder.on('PauseSpeaking', () => events.push('PauseSpeaking'))
  recorder.on('ResumeSpeaking', () => events.push('ResumeSpeaking'))
  recorder.on('StopSpeaking', () => events.push('StopSpeaking'))
  recorder.on('Chunk', (chunk) => events.push(chunk))
  const chunks = () => events.filter((e): e is Int16Array => typeof e !== 'string')
  return { mic, recorder, events, chunks }
}

/**
 * The events, with the audio between two of them as one entry: the FakeMic's sample numbers
 * `[first, last]` (numbers from `FakeMic.frames`), checked to be continuous.
 */
function timeline(events: Array<string | Int16Array>): Array<string | [number, number]> {
  const out: Array<string | [number, number]> = []
  let run: Int16Array[] = []
  const endRun = () => {
    if (run.length === 0) return
    const audio = concatPcm16(run)
    audio.forEach((sample, i) => {
      if (sample !== (audio[0]! + i) % 32768) throw new Error(`gap at ${i}`)
    })
    out.push([audio[0]!, audio[0]! + audio.length - 1])
    run = []
  }
  for (const event of events) {
    if (typeof event === 'string') {
      endRun()
      out.push(event)
    } else run.push(event)
  }
  endRun()
  return out
}

/** 1 s of quiet, 440 ms of speech, `pauseFrames` of quiet, 60 ms of speech, 600 ms of quiet (20 ms frames). */
function pausedSpeech(mic: FakeMic, pauseFrames: number) {
  mic.frames(50, -90, 0)
  mic.frames(22, -20, 50 * 320)
  mic.frames(pauseFrames, -90, 72 * 320)
  const back = 72 + pauseFrames
  mic.frames(3, -20, back * 320)
  mic.frames(30, -90, (back + 3) * 320)
  return back
}

describe('MicRecorder', () => {
  it('sends StartSpeaking, the pre-roll and speech as 100 ms chunks, the last partial chunk, then StopSpeaking', async () => {
    const { mic, recorder, events, chunks } = setup()
    await recorder.start(mic)
    // 1 s of silence: nothing is sent
    mic.frames(50, -90, 0)
    expect(events).toEqual([])
    // 440 ms of speech, then silence until the VAD ends the utterance
    mic.frames(22, -20, 50 * 320)
    expect(events[0]).toBe('StartSpeaking')
    expect(recorder.state.isSpeaking).toBe(true)
    mic.frames(30, -90, 72 * 320)
    expect(events.at(-1)).toBe('StopSpeaking')
    expect(recorder.state.isSpeaking).toBe(false)

    const sent = concatPcm16(chunks())
    expect(
      chunks()
        .slice(0, -1)
        .every((chunk) => chunk.length === 1600)
    ).toBe(true)
    expect(chunks().at(-1)!.length).toBeLessThan(1600)
    // The audio is continuous, starting with the pre-roll (300 ms: 14 frames before the first
    // loud one, and that one), through the speech and the 600 ms of silence the VAD waited for
    const firstSample = (50 - 14) * 320
    expect(sent[0]).toBe(firstSample % 32768)
    expect(sent.length).toBe((14 + 22 + 30) * 320)
    sent.forEach((sample, i) => {
      if (sample !== (firstSample + i) % 32768) throw new Error(`gap at ${i}`)
    })
  })

  it('sends nothing for noise the VAD cancels', async () => {
    const { mic, recorder, events } = setup()
    await recorder.start(mic)
    mic.frames(2, -20)
    mic.frames(20, -90)
    expect(events).toEqual([])
  })

  it('ends an utterance in progress on stop', async () => {
    const { mic, recorder, events } = setup()
    await recorder.start(mic)
    mic.frames(10, -20)
    await recorder.stop()
    expect(events.at(-1)).toBe('StopSpeaking')
    expect(recorder.state).toEqual({ isStarting: false, isStarted: false, isSpeaking: false })
    mic.frames(10, -20)
    expect(events.at(-1)).toBe('StopSpeaking')
  })

  it('sends a pause as audio of the utterance unless it reports pauses', async () => {
    const { mic, recorder, events } = setup()
    await recorder.start(mic)
    pausedSpeech(mic, 12)
    // From the pre-roll (frame 36) through the 600 ms of quiet that ended it (frame 116)
    expect(timeline(events)).toEqual(['StartSpeaking', [36 * 320, 117 * 320 - 1], 'StopSpeaking'])
  })

  it('reports a pause: the audio before it, PauseSpeaking, then ResumeSpeaking and the audio since', async () => {
    const { mic, recorder, events } = setup()
    recorder.reportsPauses = true
    await recorder.start(mic)
    pausedSpeech(mic, 12)
    // Paused after 200 ms of quiet (frame 81): all the audio until then went before it. The
    // speech came back at frame 84: the held audio since the pause (82-83, under the 300 ms
    // pre-roll) and that frame go after ResumeSpeaking. Nothing is sent twice, nothing is lost.
    // The last quiet is a pause (frame 96), then the end (frame 116), with no audio between.
    expect(timeline(events)).toEqual([
      'StartSpeaking',
      [36 * 320, 82 * 320 - 1],
      'PauseSpeaking',
      'ResumeSpeaking',
      [82 * 320, 97 * 320 - 1],
      'PauseSpeaking',
      'StopSpeaking',
    ])
    expect(recorder.state.isSpeaking).toBe(false)
  })

  it('after a long pause, sends only the pre-roll of the speech that came back', async () => {
    const { mic, recorder, events } = setup()
    recorder.reportsPauses = true
    await recorder.start(mic)
    const back = pausedSpeech(mic, 25) // 500 ms of quiet: a pause, not the end
    // The pre-roll: the VAD's 200 ms delay and a 100 ms margin, 300 ms: the 14 frames before the
    // first loud one (which the VAD reacted to), and that one
    expect(timeline(events).slice(2, 5)).toEqual([
      'PauseSpeaking',
      'ResumeSpeaking',
      [(back - 14) * 320, (back + 13) * 320 - 1],
    ])
  })
})
