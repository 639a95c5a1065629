import { openLibrary, requireFiles, type NativeLibrary } from './open-library.js'
import type { LocalSTTOptions } from '../stt/options.js'
import { STT_PACKAGES } from './packages.js'

/** Where Debian's `pocketsphinx-en-us` puts the US-English model. */
export const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us'

/**
 * openmic's defaults, for latency: no second full decoding pass at the end of the utterance
 * (`fwdflat`), so the final transcript is ready right after the audio ends; the lattice rescoring
 * (`bestpath`) stays, as it costs almost nothing. pocketsphinx's own log goes nowhere.
 */
const DEFAULT_ARGS: Record<string, string> = { fwdflat: 'no', bestpath: 'yes', logfn: '/dev/null' }

function modelFiles(modelDir: string) {
  return {
    hmm: `${modelDir}/en-us`,
    lm: `${modelDir}/en-us.lm.bin`,
    dict: `${modelDir}/cmudict-en-us.dict`,
  }
}

function openLibraries(): { ps: NativeLibrary; base: NativeLibrary } {
  return {
    base: openLibrary('libsphinxbase.so.3', STT_PACKAGES),
    ps: openLibrary('libpocketsphinx.so.3', STT_PACKAGES),
  }
}

/** Throws a `LocalSetupError` unless pocketsphinx and its model are installed. Cheap. */
export function checkPocketsphinx(options: LocalSTTOptions = {}): void {
  openLibraries()
  requireFiles(Object.values(modelFiles(options.modelDir ?? DEFAULT_MODEL_DIR)), STT_PACKAGES)
}

/**
 * One pocketsphinx decoder (pocketsphinx 0.8+5prealpha API). Loading the model takes about half a
 * second; reuse the decoder for every utterance. Blocking: run it in a worker thread.
 */
export class PocketsphinxDecoder {
  private readonly startUtt: (ps: bigint) => number
  private readonly processRaw: (
    ps: bigint,
    data: Int16Array,
    n: number,
    a: number,
    b: number
  ) => number
  private readonly endUtt: (ps: bigint) => number
  private readonly getHyp: (ps: bigint, score: null) => string | null
  private readonly decoder: bigint
  /** Kept referenced: koffi unloads a library once nothing refers to it. */
  private readonly libraries: ReturnType<typeof openLibraries>

  constructor(options: LocalSTTOptions = {}) {
    checkPocketsphinx(options)
    this.libraries = openLibraries()
    const { ps, base } = this.libraries
    const psArgs = ps.func('void *ps_args(void)')
    const cmdLnInit = base.func('void *cmd_ln_init(void *inout, void *defn, int strict, ...)')
    const psInit = ps.func('void *ps_init(void *config)')
    this.startUtt = ps.func('int ps_start_utt(void *ps)')
    this.processRaw = ps.func(
      'int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)'
    )
    this.endUtt = ps.func('int ps_end_utt(void *ps)')
    this.getHyp = ps.func('const char *ps_get_hyp(void *ps, void *score)')

    const args = {
      ...modelFiles(options.modelDir ?? DEFAULT_MODEL_DIR),
      ...DEFAULT_ARGS,
      ...options.args,
    }
    const variadic = Object.entries(args).flatMap(([key, value]) => [
      'str',
      `-${key}`,
      'str',
      value,
    ])
    const config = cmdLnInit(null, psArgs(), 1, ...variadic, 'str', null)
    if (!config) throw new Error(`pocketsphinx rejected its arguments: ${JSON.stringify(args)}`)
    const decoder = psInit(config)
    if (!decoder) throw new Error('pocketsphinx could not load its model')
    this.decoder = decoder
  }

  /** Starts a new utterance (ending any unfinished one). */
  start(): void {
    if (this.startUtt(this.decoder) < 0) throw new Error('ps_start_utt failed')
  }

  /** Decodes more audio of the current utterance. */
  process(samples: Int16Array): void {
    if (samples.length === 0) return
    if (this.processRaw(this.decoder, samples, samples.length, 0, 0) < 0) {
      throw new Error('ps_process_raw failed')
    }
  }

  /** Ends the utterance and returns its transcript ('' when nothing was recognized). */
  end(): string {
    if (this.endUtt(this.decoder) < 0) throw new Error('ps_end_utt failed')
    return (this.getHyp(this.decoder, null) ?? '').trim()
  }
}
