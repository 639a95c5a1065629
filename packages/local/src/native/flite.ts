import koffi from 'koffi'
import { openLibrary } from './open-library.js'
import { TTS_PACKAGES } from './packages.js'

/** The voices of Debian's `libflite1`. `kal` speaks at 8 kHz, the others at 16 kHz. */
export type FliteVoice = 'slt' | 'awb' | 'rms' | 'kal' | 'kal16'

/** Speech synthesized by flite: mono PCM16 at `sampleRate`. */
export interface FliteWave {
  sampleRate: number
  samples: Int16Array<ArrayBuffer>
}

const Wave = koffi.struct('openmic_cst_wave', {
  type: 'const char *',
  sample_rate: 'int',
  num_samples: 'int',
  num_channels: 'int',
  samples: 'void *',
})

function openFlite(voice: FliteVoice) {
  return {
    flite: openLibrary('libflite.so.1', TTS_PACKAGES),
    voice: openLibrary(`libflite_cmu_us_${voice}.so.1`, TTS_PACKAGES),
  }
}

/** Throws a `LocalSetupError` unless flite and the voice are installed. Cheap. */
export function checkFlite(voice: FliteVoice = 'slt'): void {
  openFlite(voice)
}

/** flite with one voice, loaded once. Blocking: run it in a worker thread. */
export class FliteSynthesizer {
  private readonly textToWave: (text: string, voice: bigint) => bigint | null
  private readonly deleteWave: (wave: bigint) => void
  private readonly seedRandom: (seed: number) => void
  private readonly voice: bigint
  /** Kept referenced: koffi unloads a library once nothing refers to it, voice data included. */
  private readonly libraries: ReturnType<typeof openFlite>

  constructor(voice: FliteVoice = 'slt') {
    const libs = openFlite(voice)
    this.libraries = libs
    libs.flite.func('int flite_init()')()
    this.textToWave = libs.flite.func('void *flite_text_to_wave(const char *text, void *voice)')
    this.deleteWave = libs.flite.func('void delete_wave(void *wave)')
    this.seedRandom = koffi.load('libc.so.6').func('void srand(unsigned int seed)')
    const register = libs.voice.func(`void *register_cmu_us_${voice}(const char *voxdir)`)
    const registered = register(null)
    if (!registered) throw new Error(`flite could not load the ${voice} voice`)
    this.voice = registered
  }

  /** Speaks one piece of text (best a sentence) and returns all of its audio. Deterministic. */
  synthesize(text: string): FliteWave {
    // flite's excitation noise comes from libc's rand(): seeding it the same way every time makes
    // the same text give the same audio (as the `flite` command does), instead of a slightly
    // different take on each call.
    this.seedRandom(1)
    const wave = this.textToWave(text, this.voice)
    if (!wave) throw new Error(`flite could not synthesize: ${JSON.stringify(text)}`)
    try {
      const header = koffi.decode(wave, Wave) as {
        sample_rate: number
        num_samples: number
        num_channels: number
        samples: bigint | null
      }
      if (header.num_channels !== 1)
        throw new Error(`flite returned ${header.num_channels} channels`)
      const samples =
        header.num_samples > 0 && header.samples
          ? (koffi.decode(
              header.samples,
              koffi.array('int16', header.num_samples, 'Typed')
            ) as Int16Array)
          : new Int16Array(0)
      return { sampleRate: header.sample_rate, samples: samples.slice() }
    } finally {
      this.deleteWave(wave)
    }
  }
}
