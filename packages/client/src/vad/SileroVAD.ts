import type { MicSource } from '../audio/types.js'
import { getSileroFactory } from './silero-loader.js'
import type { MicVADLike } from './silero-loader.js'
import { VAD, VADStatus } from './VAD.js'

export interface SileroVADOptions {
  /**
   * URL of the folder serving `@ricky0123/vad-web`'s `dist/` files that the VAD loads:
   * `vad.worklet.bundle.min.js` and `silero_vad_v5.onnx` (or `silero_vad_legacy.onnx`).
   * Serve them from your app; nothing is ever fetched from a CDN. Default `/vad/`.
   */
  baseAssetPath: string
  /**
   * URL of the folder serving `onnxruntime-web`'s `dist/ort-wasm-simd-threaded.wasm` and
   * `ort-wasm-simd-threaded.mjs`. Default: `baseAssetPath`.
   */
  onnxWASMBasePath?: string
  /** Silero model version (default `v5`). */
  model: 'v5' | 'legacy'
  /** Speech probability above which a frame is speech (default 0.5). */
  positiveSpeechThreshold: number
  /** Probability below which a frame is silence (default 0.35). */
  negativeSpeechThreshold: number
  /** Speech needed to confirm, in ms (default 250). */
  minSpeechMs: number
  /** Silence that ends speech, in ms (default 600). */
  redemptionMs: number
  /**
   * Silence within confirmed speech that makes a pause (`PauseSpeaking`), in ms (default 200):
   * the user may go on. A value of `redemptionMs` or more reports no pause.
   */
  pauseMs: number
}

export const DEFAULT_SILERO_VAD_OPTIONS: SileroVADOptions = {
  baseAssetPath: '/vad/',
  model: 'v5',
  positiveSpeechThreshold: 0.5,
  negativeSpeechThreshold: 0.35,
  minSpeechMs: 250,
  redemptionMs: 600,
  pauseMs: 200,
}

/**
 * Silero VAD (a neural speech detector) through `@ricky0123/vad-web`, an optional peer
 * dependency: `import '@openmic/client/silero'` once to load it. It listens to the microphone's
 * own stream and context.
 */
export class SileroVAD extends VAD {
  readonly name = 'silero'
  readonly delay = 300
  readonly options: SileroVADOptions
  private micVAD?: MicVADLike
  /** Silence (frames below the negative threshold) since the speech was last heard, in ms. */
  private silentMs = 0

  constructor(options: Partial<SileroVADOptions> = {}) {
    super()
    this.options = { ...DEFAULT_SILERO_VAD_OPTIONS, ...options }
  }

  async start(mic: MicSource): Promise<void> {
    if (this.micVAD) return
    const stream = mic.stream
    if (!stream) throw new Error('SileroVAD needs a started microphone')
    const MicVAD = getSileroFactory()
    const { baseAssetPath, onnxWASMBasePath, pauseMs: _pauseMs, ...options } = this.options
    this.micVAD = await MicVAD.new({
      ...options,
      baseAssetPath,
      onnxWASMBasePath: onnxWASMBasePath ?? baseAssetPath,
      audioContext: mic.audioContext,
      getStream: async () => stream,
      // The microphone belongs to Mic: the VAD never stops or restarts its tracks
      pauseStream: async () => {},
      resumeStream: async (s: MediaStream) => s,
      startOnLoad: !this.isPaused,
      submitUserSpeechOnPause: false,
      onSpeechStart: () => this.startSpeaking(),
      onSpeechRealStart: () => this.confirmSpeaking(),
      onVADMisfire: () => this.cancelSpeaking(),
      onSpeechEnd: () => this.stopSpeaking(),
      onFrameProcessed: (probabilities: { isSpeech: number }, frame: Float32Array) =>
        this.onFrame(probabilities.isSpeech, frame.length / 16),
    })
  }

  async stop(): Promise<void> {
    const micVAD = this.micVAD
    this.micVAD = undefined
    this.reset()
    await micVAD?.destroy()
  }

  protected override onPause(): void {
    void this.micVAD?.pause()
  }

  protected override onResume(): void {
    void this.micVAD?.start()
  }

  /**
   * One analysed frame (`ms` long, 16 kHz): counts the silence inside confirmed speech as
   * vad-web counts it towards the end of speech (a frame between the two thresholds changes
   * nothing), and reports a pause once it reaches `pauseMs`.
   */
  private onFrame(probability: number, ms: number) {
    if (this.status !== VADStatus.Speaking) {
      this.silentMs = 0
      return
    }
    if (probability >= this.options.positiveSpeechThreshold) {
      this.silentMs = 0
      this.resumeSpeaking()
    } else if (probability < this.options.negativeSpeechThreshold) {
      this.silentMs += ms
      if (this.silentMs >= this.options.pauseMs) this.pauseSpeaking()
    }
  }
}
