import { describe, expect, it } from 'vitest'
import { LocalSetupError, LocalSTT, LocalTTS, type FliteVoice } from '../dist/index.js'

describe('missing system packages', () => {
  it('LocalSTT names the apt-get command when the model is missing', () => {
    let error: unknown
    try {
      new LocalSTT({ modelDir: '/nonexistent/model' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(LocalSetupError)
    expect(error).toMatchObject({
      code: 'missing_system_package',
      packages: ['libpocketsphinx3', 'pocketsphinx-en-us'],
      installCommand: 'apt-get install -y libpocketsphinx3 pocketsphinx-en-us',
    })
    expect((error as Error).message).toContain('/nonexistent/model/en-us')
    expect((error as Error).message).toContain(
      'apt-get install -y libpocketsphinx3 pocketsphinx-en-us'
    )
  })

  it('LocalTTS names the apt-get command when a flite library is missing', () => {
    expect(() => new LocalTTS({ voice: 'nobody' as FliteVoice })).toThrow(
      /libflite_cmu_us_nobody\.so\.1 was not found\. Install it \(as root\) with:\n {2}apt-get install -y libflite1$/
    )
  })
})
