/** Samples the v5 model takes per call at 16 kHz (32 ms). */
export const WINDOW_SAMPLES = 512
/**
 * Samples of the previous window put before each window, as silero-vad's own ONNX wrapper does:
 * the v5 model was trained with them, and without them its probabilities come out lower.
 */
export const CONTEXT_SAMPLES = 64
/** Floats in the model's recurrent state (shape [2, 1, 128]). */
export const STATE_SIZE = 2 * 1 * 128

/** What one call of the model gives back. */
export interface SileroOutput {
  /** Probability that the window holds speech, 0 to 1. */
  probability: number
  /** The recurrent state to pass with the next window of the same audio. */
  state: Float32Array
}

/**
 * The loaded model, shared by every {@link SileroVAD} of the process: it keeps no state of its
 * own (each VAD passes its recurrent state in and gets the next one back).
 */
export interface SileroModel {
  /**
   * Runs one window.
   * @param input - `CONTEXT_SAMPLES + WINDOW_SAMPLES` float samples in [-1, 1].
   * @param state - the state returned for the previous window (zeros at first).
   */
  run(input: Float32Array, state: Float32Array): Promise<SileroOutput>
}
