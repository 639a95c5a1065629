import { describe, expect, it } from 'vitest'
import type { MicSource } from '../audio/types.js'
import { MultipleVAD } from './MultipleVAD.js'
import { VAD } from './VAD.js'

class ScriptedVAD extends VAD {
  readonly name = 'scripted'
  constructor(readonly delay: number) {
    super()
  }
  async start(_mic: MicSource) {}
  async stop() {}
  start_() {
    this.startSpeaking()
  }
  confirm() {
    this.confirmSpeaking()
  }
  cancel() {
    this.cancelSpeaking()
  }
  end() {
    this.stopSpeaking()
  }
  pause_() {
    this.pauseSpeaking()
  }
  resume_() {
    this.resumeSpeaking()
  }
}

describe('MultipleVAD', () => {
  it('starts and confirms only when all agree, and stops when one stops', async () => {
    const a = new ScriptedVAD(100)
    const b = new ScriptedVAD(300)
    const vad = new MultipleVAD([a, b])
    expect(vad.delay).toBe(300)
    const events: string[] = []
    vad.on('StartSpeaking', () => events.push('start'))
    vad.on('ConfirmSpeaking', () => events.push('confirm'))
    vad.on('CancelSpeaking', () => events.push('cancel'))
    vad.on('StopSpeaking', () => events.push('stop'))
    await vad.start({} as MicSource)
    a.confirm()
    expect(events).toEqual([])
    b.start_()
    expect(events).toEqual(['start'])
    b.confirm()
    expect(events).toEqual(['start', 'confirm'])
    a.end()
    expect(events).toEqual(['start', 'confirm', 'stop'])
    b.end()
    a.start_()
    b.start_()
    a.cancel()
    expect(events).toEqual(['start', 'confirm', 'stop', 'start', 'cancel'])
  })

  it('pauses as soon as one pauses, and goes on once none is paused', async () => {
    const a = new ScriptedVAD(100)
    const b = new ScriptedVAD(300)
    const vad = new MultipleVAD([a, b])
    const events: string[] = []
    for (const name of ['PauseSpeaking', 'ResumeSpeaking', 'StopSpeaking'] as const) {
      vad.on(name, () => events.push(name))
    }
    await vad.start({} as MicSource)
    a.confirm()
    b.confirm()
    a.pause_()
    expect(events).toEqual(['PauseSpeaking'])
    b.pause_()
    a.resume_()
    expect(vad.isSpeechPaused).toBe(true)
    b.resume_()
    expect(events).toEqual(['PauseSpeaking', 'ResumeSpeaking'])
    b.pause_()
    b.end()
    expect(events).toEqual(['PauseSpeaking', 'ResumeSpeaking', 'PauseSpeaking', 'StopSpeaking'])
    expect(vad.isSpeechPaused).toBe(false)
  })
})
