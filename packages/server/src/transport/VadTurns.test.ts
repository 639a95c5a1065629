import { EnergyVAD, VAD } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import type { CallInput } from './CallServer.js'
import { VadTurns } from './VadTurns.js'

function tone(ms: number): Buffer {
  const pcm = Buffer.alloc(ms * 32)
  for (let i = 0; i < ms * 16; i++) {
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / 16000)), i * 2)
  }
  return pcm
}
const silence = (ms: number) => Buffer.alloc(ms * 32)

/** A call's input that logs what it is told; `preemptive`: it ends the utterance at a pause. */
function recordingInput({ preemptive = false } = {}) {
  const log: string[] = []
  let audioMs = 0
  const input: CallInput = {
    startSpeaking: () => log.push('StartSpeaking'),
    stopSpeaking: () => log.push(`StopSpeaking after ${audioMs} ms of audio`),
    userAudio: (audio) => {
      audioMs += audio.length / 32
      return true
    },
    pauseSpeaking: () => {
      log.push(`PauseSpeaking after ${audioMs} ms of audio`)
      return preemptive
    },
    resumeSpeaking: () => log.push(`ResumeSpeaking after ${audioMs} ms of audio`),
    mute: () => log.push('Mute'),
    played: () => log.push('Played'),
    clientKnown: () => {},
  }
  return { input, log }
}

describe('VadTurns', () => {
  it('opens an utterance where the VAD heard speech begin (less a pre-roll), closes it at its end', () => {
    const { input, log } = recordingInput()
    const turns = new VadTurns(new EnergyVAD({ minSpeechMs: 200, silenceMs: 400 }), input, {
      beforeStartSpeaking: () => log.push('barge-in checked'),
    })
    for (const piece of [silence(1000), tone(600), silence(600)]) {
      for (let at = 0; at < piece.length; at += 640) turns.audio(piece.subarray(at, at + 640))
    }
    // Speech from 1000 ms, ended at 1600 ms, heard ended 400 ms later: the utterance holds the
    // 200 ms pre-roll, the voice and the silence until the end was heard
    expect(log).toEqual([
      'barge-in checked',
      'StartSpeaking',
      'StopSpeaking after 1200 ms of audio',
    ])
  })

  it('a VAD that answers late (a model) still opens the utterance where the speech began', () => {
    class LateVAD extends VAD {
      fed = 0
      process(audio: Buffer) {
        this.fed += audio.length / 32
        if (this.fed === 1500) this.emit('SpeechStart', { atMs: 1000 })
        if (this.fed === 2000) this.emit('SpeechEnd', { atMs: 1800 })
      }
      reset() {}
    }
    const { input, log } = recordingInput()
    const turns = new VadTurns(new LateVAD(), input)
    for (let ms = 0; ms < 2000; ms += 100) turns.audio(silence(100))
    expect(log).toEqual(['StartSpeaking', 'StopSpeaking after 1200 ms of audio'])
  })

  it('a VAD that fails ends the utterance it opened; the audio goes on without turns', () => {
    const { input, log } = recordingInput()
    const vad = new EnergyVAD({ minSpeechMs: 100 })
    const turns = new VadTurns(vad, input)
    turns.audio(tone(300))
    vad.emit('Failed', new Error('model gone'))
    turns.audio(tone(300))
    expect(log).toEqual(['StartSpeaking', 'StopSpeaking after 300 ms of audio'])
  })

  /** Speech 1000-1600 ms, quiet 300 ms, speech 1900-2300, then quiet, fed 20 ms at a time. */
  function pausedTurn(turns: VadTurns) {
    const audio = [silence(1000), tone(600), silence(300), tone(400), silence(500)]
    for (const piece of audio) {
      for (let at = 0; at < piece.length; at += 640) turns.audio(piece.subarray(at, at + 640))
    }
  }
  const pausingVad = () => new EnergyVAD({ minSpeechMs: 200, silenceMs: 400, pauseMs: 200 })

  it('a call that answers at pauses: the pause ends the utterance, the resumed speech opens the next', () => {
    const { input, log } = recordingInput({ preemptive: true })
    pausedTurn(new VadTurns(pausingVad(), input))
    // Speech from 1000 ms (sent from 800), paused from 1600 (heard at 1800: 1000 ms sent), back
    // at 1900 (heard within its first 20 ms window): the new utterance starts where the last one
    // ended (1800; the pre-roll would reach back to 1700), the pause's audio is not sent again.
    // The last silence is a pause first (heard at 2500: 700 ms more), then the end (heard at
    // 2700), with nothing sent in between.
    expect(log).toEqual([
      'StartSpeaking',
      'PauseSpeaking after 1000 ms of audio',
      'ResumeSpeaking after 1000 ms of audio',
      'PauseSpeaking after 1700 ms of audio',
      'StopSpeaking after 1700 ms of audio',
    ])
  })

  it('a call that does not answer at pauses: one utterance, every byte of it sent once', () => {
    const { input, log } = recordingInput({ preemptive: false })
    pausedTurn(new VadTurns(pausingVad(), input))
    // The call keeps the utterance open at the pauses: from 800 ms to the end heard at 2700
    expect(log).toEqual([
      'StartSpeaking',
      'PauseSpeaking after 1000 ms of audio',
      'PauseSpeaking after 1700 ms of audio',
      'StopSpeaking after 1900 ms of audio',
    ])
  })
})
