import type { MicSource } from '../audio/types.js'
import { VAD } from './VAD.js'

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
}

export const DEFAULT_SILERO_VAD_OPTIONS: SileroVADOptions = {
  baseAssetPath: '/vad/',
  model: 'v5',
  positiveSpeechThreshold: 0.5,
  negativeSpeechThreshold: 0.35,
  minSpeechMs: 250,
  redemptionMs: 600,
}

/** The part of `@ricky0123/vad-web`'s MicVAD this class uses. */
interface MicVADLike {
  start(): Promise<void>
  pause(): Promise<void>
  destroy(): Promise<void>
}

/**
 * Silero VAD (a neural speech detector) through `@ricky0123/vad-web`, an optional peer
 * dependency loaded on `start()` only. It listens to the microphone's own stream and context.
 */
export class SileroVAD extends VAD {
  readonly name = 'silero'
  readonly delay = 300
  readonly options: SileroVADOptions
  private micVAD?: MicVADLike

  constructor(options: Partial<SileroVADOptions> = {}) {
    super()
    this.options = { ...DEFAULT_SILERO_VAD_OPTIONS, ...options }
  }

  async start(mic: MicSource): Promise<void> {
    if (this.micVAD) return
    const stream = mic.stream
    if (!stream) throw new Error('SileroVAD needs a started microphone')
    const { MicVAD } = await import('@ricky0123/vad-web')
    const { baseAssetPath, onnxWASMBasePath, ...options } = this.options
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
}
