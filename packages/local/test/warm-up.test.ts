import { describe, expect, it } from 'vitest'
import { LocalSetupError, LocalSTT, LocalTTS, type FliteVoice } from '../dist/index.js'
import { settledAtOnce, speak, transcribe } from './helpers.js'

// Each test uses its own voice or decoder options: a worker is pooled per configuration, and
// one left idle by an earlier test would make a later one warm without its warm-up.
describe('warm-up', () => {
  it('without it, a new LocalTTS still has to start its worker and load its voice', async () => {
    const tts = new LocalTTS({ voice: 'rms' })
    try {
      expect(await settledAtOnce(tts.ready())).toBe(false)
      await tts.ready()
    } finally {
      tts.destroy()
    }
  })

  it('LocalTTS.warmUp() loads the voice: the next LocalTTS with it is ready at once, and speaks', async () => {
    await LocalTTS.warmUp({ voice: 'awb' })
    const tts = new LocalTTS({ voice: 'awb' })
    try {
      expect(await settledAtOnce(tts.ready())).toBe(true)
      expect((await speak(tts, 'Hello there.')).length).toBeGreaterThan(0)
    } finally {
      tts.destroy()
    }
  })

  it('LocalSTT.warmUp() loads the model: the next LocalSTT with those options is ready at once, and hears', async () => {
    const options = { args: { bestpath: 'yes' } }
    const tts = new LocalTTS()
    const question = await speak(tts, 'What time is it?').finally(() => tts.destroy())
    const control = new LocalSTT({ args: { bestpath: 'no' } })
    try {
      expect(await settledAtOnce(control.ready())).toBe(false)
    } finally {
      control.destroy()
    }

    await LocalSTT.warmUp(options)
    const stt = new LocalSTT(options)
    try {
      expect(await settledAtOnce(stt.ready())).toBe(true)
      expect(await transcribe(stt, question)).toBe('what time is it')
    } finally {
      stt.destroy()
    }
  })

  it('rejects with a LocalSetupError naming the packages when they are missing', async () => {
    await expect(LocalSTT.warmUp({ modelDir: '/nonexistent/model' })).rejects.toBeInstanceOf(
      LocalSetupError
    )
    await expect(LocalTTS.warmUp({ voice: 'nobody' as FliteVoice })).rejects.toMatchObject({
      installCommand: 'apt-get install -y libflite1',
    })
  })
})
