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
})
