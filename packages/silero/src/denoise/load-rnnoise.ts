/** The exports of RNNoise's wasm build that the denoiser calls (C functions and the heap). */
export interface RnnoiseModule {
  HEAPF32: Float32Array
  _malloc(bytes: number): number
  _free(pointer: number): void
  /** Creates a denoiser state; 0 for the built-in model. */
  _rnnoise_create(model: number): number
  _rnnoise_destroy(state: number): void
  /** Denoises 480 samples (int16 scale) in place or into `output`; returns a voice probability. */
  _rnnoise_process_frame(state: number, output: number, input: number): number
}

/** RNNoise's frame: 10 ms at 48 kHz. */
export const RNNOISE_FRAME = 480

let loading: Promise<RnnoiseModule> | undefined
let loaded: RnnoiseModule | undefined

/** RNNoise if it loaded already (a denoiser created then can start at once). */
export function loadedRnnoise(): RnnoiseModule | undefined {
  return loaded
}

/**
 * Instantiates RNNoise's wasm once per process (about 5 ms; 125 kB from the npm package). A failed
 * load is forgotten, so that a later denoiser tries again.
 */
export function loadRnnoise(): Promise<RnnoiseModule> {
  loading ??= import('@echogarden/rnnoise-wasm')
    .then(({ default: RNNoise }) => RNNoise())
    .then((module) => (loaded = module))
    .catch((error: unknown) => {
      loading = undefined
      throw new Error('@openmic/silero: could not load RNNoise (@echogarden/rnnoise-wasm)', {
        cause: error,
      })
    })
  return loading
}
