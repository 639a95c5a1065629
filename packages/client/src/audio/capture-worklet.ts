import { WIRE_SAMPLE_RATE } from './pcm.js'

/** Name under which the capture processor registers in the AudioWorklet scope. */
export const CAPTURE_PROCESSOR_NAME = 'openmic-capture'

/** Options given to the capture processor (`processorOptions`). */
export interface CaptureProcessorOptions {
  /** Output sample rate (16 000 on the wire). */
  targetRate: number
  /** Samples per posted frame at the output rate (320 = 20 ms at 16 kHz). */
  frameSamples: number
}

/** What the capture processor posts for each frame. */
export interface CaptureFrameMessage {
  /** PCM16 mono at `targetRate`, exactly `frameSamples` long. */
  pcm: Int16Array
  /** RMS level of the input audio this frame was made from, in dBFS (-100..0). */
  volume: number
}

/**
 * Source of the AudioWorklet module that captures the microphone. It is plain JavaScript in a
 * string so that it loads without a bundler (from a Blob URL, see `createCaptureWorkletUrl`), and
 * so that the unit tests run this exact text in Node.
 *
 * It mixes the input to mono, resamples it from the context rate (`sampleRate`, a global of the
 * worklet scope) to `targetRate` (a windowed-sinc low-pass first when downsampling, so what 16 kHz
 * cannot carry is removed instead of folded back; linear interpolation between output positions),
 * converts to PCM16 and posts `{pcm, volume}` every `frameSamples` output samples, transferring
 * the buffer.
 */
export const CAPTURE_WORKLET_SOURCE = `
class OpenmicCaptureProcessor extends AudioWorkletProcessor {
  constructor(options) {
    super()
    const opts = (options && options.processorOptions) || {}
    this.targetRate = opts.targetRate || ${WIRE_SAMPLE_RATE}
    this.frameSamples = opts.frameSamples || 320
    this.ratio = sampleRate / this.targetRate
    this.kernel = lowPassKernel(this.ratio)
    this.half = (this.kernel.length - 1) / 2
    // Mono input not consumed yet (the filter's history included, zeros at first), in a buffer
    // reused across quanta (no allocation on the audio thread), and the position of the next
    // output sample in it, in input samples
    this.buf = new Float32Array(2 * this.half + 4096)
    this.len = this.half
    this.pos = this.half
    this.out = new Int16Array(this.frameSamples)
    this.outLength = 0
    this.sumSquares = 0
    this.inputCount = 0
  }

  process(inputs) {
    const input = inputs[0]
    if (!input || input.length === 0 || !input[0]) return true
    const length = input[0].length
    if (this.len + length > this.buf.length) {
      const grown = new Float32Array(2 * (this.len + length))
      grown.set(this.buf.subarray(0, this.len))
      this.buf = grown
    }
    const buf = this.buf
    for (let i = 0; i < length; i++) {
      let s = 0
      for (let c = 0; c < input.length; c++) s += input[c][i]
      s /= input.length
      buf[this.len + i] = s
      this.sumSquares += s * s
    }
    this.len += length
    this.inputCount += length

    let pos = this.pos
    while (Math.floor(pos) + 1 + this.half < this.len) {
      const i = Math.floor(pos)
      const f = pos - i
      const a = this.filter(buf, i)
      this.emit(f === 0 ? a : a * (1 - f) + this.filter(buf, i + 1) * f)
      pos += this.ratio
    }
    const keep = Math.floor(pos) - this.half
    buf.copyWithin(0, keep, this.len)
    this.len -= keep
    this.pos = pos - keep
    return true
  }

  filter(buf, center) {
    const kernel = this.kernel
    const from = center - this.half
    let sum = 0
    for (let k = 0; k < kernel.length; k++) sum += kernel[k] * buf[from + k]
    return sum
  }

  emit(sample) {
    const s = sample > 1 ? 1 : sample < -1 ? -1 : sample
    this.out[this.outLength++] = s < 0 ? s * 0x8000 : s * 0x7fff
    if (this.outLength < this.frameSamples) return
    const rms = Math.sqrt(this.sumSquares / Math.max(1, this.inputCount))
    const volume = rms > 0 ? Math.max(-100, Math.min(0, 20 * Math.log10(rms))) : -100
    const pcm = this.out
    this.port.postMessage({ pcm, volume }, [pcm.buffer])
    this.out = new Int16Array(this.frameSamples)
    this.outLength = 0
    this.sumSquares = 0
    this.inputCount = 0
  }
}

// Windowed-sinc (Blackman) low-pass at 90 % of the output Nyquist frequency, unit gain at DC.
// Upsampling needs none: a single tap, and plain linear interpolation.
function lowPassKernel(ratio) {
  if (ratio <= 1) return new Float32Array([1])
  const taps = Math.ceil(ratio * 16) | 1
  const cutoff = 0.45 / ratio
  const mid = (taps - 1) / 2
  const kernel = new Float32Array(taps)
  let sum = 0
  for (let k = 0; k < taps; k++) {
    const x = k - mid
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x)
    const window =
      0.42 - 0.5 * Math.cos((2 * Math.PI * k) / (taps - 1)) + 0.08 * Math.cos((4 * Math.PI * k) / (taps - 1))
    kernel[k] = sinc * window
    sum += kernel[k]
  }
  for (let k = 0; k < taps; k++) kernel[k] /= sum
  return kernel
}

registerProcessor('${CAPTURE_PROCESSOR_NAME}', OpenmicCaptureProcessor)
`

/**
 * Makes a URL for `audioWorklet.addModule()` from {@link CAPTURE_WORKLET_SOURCE}. Call it in the
 * browser only; revoke it with `URL.revokeObjectURL` once the module is added.
 */
export function createCaptureWorkletUrl(): string {
  const blob = new Blob([CAPTURE_WORKLET_SOURCE], { type: 'application/javascript' })
  return URL.createObjectURL(blob)
}
