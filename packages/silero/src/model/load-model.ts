import { MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'
import { modelFile } from './model-file.js'
import { CONTEXT_SAMPLES, STATE_SIZE, WINDOW_SAMPLES, type SileroModel } from './SileroModel.js'

/** The process's model: loaded by the first VAD (or `warmUp()`), then shared. */
let loading: Promise<SileroModel> | undefined

/**
 * Loads the model once per process. A failed load is forgotten, so that a later VAD tries again
 * (and fails with the same clear error if nothing changed).
 */
export function loadModel(): Promise<SileroModel> {
  loading ??= openModel().catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

async function openModel(): Promise<SileroModel> {
  let path = '@ricky0123/vad-web/dist/silero_vad_v5.onnx'
  try {
    path = modelFile()
    // Imported here, not at the top: importing @openmic/silero then costs nothing until a VAD is
    // used, and the 45 MB native library is mapped once, by the first load.
    const ort = await import('onnxruntime-node')
    const session = await ort.InferenceSession.create(path, {
      // A server runs many calls at once: one thread per run, no spinning thread pool per session.
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    })
    const sampleRate = new ort.Tensor(
      'int64',
      BigInt64Array.of(BigInt(MICDROP_AUDIO_FORMAT.sampleRate)),
      []
    )
    const model: SileroModel = {
      async run(input, state) {
        const outputs = await session.run({
          input: new ort.Tensor('float32', input, [1, input.length]),
          state: new ort.Tensor('float32', state, [2, 1, 128]),
          sr: sampleRate,
        })
        return {
          probability: (outputs.output!.data as Float32Array)[0]!,
          state: outputs.stateN!.data as Float32Array,
        }
      },
    }
    // The first run allocates the session's buffers: pay it here, not on a call's first words.
    await model.run(
      new Float32Array(CONTEXT_SAMPLES + WINDOW_SAMPLES),
      new Float32Array(STATE_SIZE)
    )
    return model
  } catch (error) {
    throw new Error(`@openmic/silero: could not load the Silero VAD model (${path})`, {
      cause: error,
    })
  }
}
