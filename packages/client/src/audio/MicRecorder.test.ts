import { describe, expect, it } from 'vitest'
import { FakeMic } from '../../test/fakes.js'
import { MicRecorder } from './MicRecorder.js'
import { concatPcm16 } from './pcm.js'

function setup() {
  const mic = new FakeMic()
  const recorder = new MicRecorder('volume')
  const events: Array<string | Int16Array> = []
  recorder.on('StartSpeaking', () => events.push('StartSpeaking'))
  recorder.on('StopSpeaking', () => events.push('StopSpeaking'))
  recorder.on('Chunk', (chunk) => events.push(chunk))
  const chunks = () => events.filter((e): e is Int16Array => typeof e !== 'string')
  return { mic, recorder, events, chunks }
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
})
