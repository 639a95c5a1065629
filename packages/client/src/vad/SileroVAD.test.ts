import { describe, expect, it } from 'vitest'
import { FakeMic, recordVadEvents } from '../../test/fakes.js'
import { registerSileroVAD } from './silero-loader.js'
import { SileroVAD } from './SileroVAD.js'

/** A stand-in for vad-web's MicVAD that records its options and lets the test fire its callbacks. */
function fakeMicVAD() {
  const calls: string[] = []
  let options: Record<string, any> = {}
  registerSileroVAD({
    new: async (given: Record<string, any>) => {
      options = given
      return {
        start: async () => void calls.push('start'),
        pause: async () => void calls.push('pause'),
        destroy: async () => void calls.push('destroy'),
      }
    },
  })
  return { calls, options: () => options }
}

describe('SileroVAD', () => {
  it("maps vad-web's callbacks onto the VAD events", async () => {
    const fake = fakeMicVAD()
    const vad = new SileroVAD()
    const events = recordVadEvents(vad)
    const mic = Object.assign(new FakeMic(), { stream: {} as MediaStream })
    await vad.start(mic)
    const o = fake.options()
    o.onSpeechStart()
    o.onVADMisfire()
    o.onSpeechStart()
    o.onSpeechRealStart()
    o.onSpeechEnd(new Float32Array(0))
    expect(events).toEqual([
      'StartSpeaking',
      'CancelSpeaking',
      'StartSpeaking',
      'ConfirmSpeaking',
      'StopSpeaking',
    ])
  })

  it('reports a pause from the frames it analyses, as vad-web counts silence', async () => {
    const fake = fakeMicVAD()
    const vad = new SileroVAD({ pauseMs: 200 })
    const events = recordVadEvents(vad)
    await vad.start(Object.assign(new FakeMic(), { stream: {} as MediaStream }))
    const o = fake.options()
    const frames = (count: number, isSpeech: number) => {
      for (let i = 0; i < count; i++) o.onFrameProcessed({ isSpeech }, new Float32Array(512))
    }
    frames(10, 0.1) // silence before speech: nothing
    o.onSpeechStart()
    o.onSpeechRealStart()
    frames(6, 0.1) // 192 ms of silence
    frames(3, 0.4) // between the thresholds: neither speech nor silence
    expect(events).toEqual(['StartSpeaking', 'ConfirmSpeaking'])
    frames(1, 0.1) // 224 ms
    expect(events.slice(2)).toEqual(['PauseSpeaking'])
    frames(1, 0.9)
    frames(7, 0.1)
    o.onSpeechEnd(new Float32Array(0))
    expect(events.slice(2)).toEqual([
      'PauseSpeaking',
      'ResumeSpeaking',
      'PauseSpeaking',
      'StopSpeaking',
    ])
  })

  it("uses the microphone's stream, never stops it, and loads its files from the app's path", async () => {
    const fake = fakeMicVAD()
    const stream = {} as MediaStream
    const vad = new SileroVAD({ baseAssetPath: '/assets/vad/' })
    await vad.start(Object.assign(new FakeMic(), { stream }))
    const o = fake.options()
    expect(o.baseAssetPath).toBe('/assets/vad/')
    expect(o.onnxWASMBasePath).toBe('/assets/vad/')
    expect(o.model).toBe('v5')
    expect(await o.getStream()).toBe(stream)
    expect(await o.resumeStream(stream)).toBe(stream)
    await o.pauseStream(stream)
    vad.pause()
    vad.resume()
    await vad.stop()
    expect(fake.calls).toEqual(['pause', 'start', 'destroy'])
  })

  it('ends an utterance in progress when paused', async () => {
    const fake = fakeMicVAD()
    const vad = new SileroVAD()
    const events: string[] = []
    vad.on('StopSpeaking', () => events.push('StopSpeaking'))
    await vad.start(Object.assign(new FakeMic(), { stream: {} as MediaStream }))
    fake.options().onSpeechRealStart()
    vad.pause()
    expect(events).toEqual(['StopSpeaking'])
  })

  it('says how to load the runtime when it is missing', async () => {
    registerSileroVAD(undefined as never)
    const vad = new SileroVAD()
    await expect(
      vad.start(Object.assign(new FakeMic(), { stream: {} as MediaStream }))
    ).rejects.toThrow("import '@openmic/client/silero'")
  })
})
