import { designResamplingFilter } from './lowpass.js'

/** How the input samples are encoded: signed 16-bit or 32-bit float, little-endian, mono. */
export type SampleFormat = 'pcm16' | 'float32'

export interface ResamplerOptions {
  /** Sample rate of the input, in Hz. */
  fromRate: number
  /** Sample rate of the output, in Hz (the output is always PCM16). */
  toRate: number
  /** Encoding of the input (default `'pcm16'`). `'float32'` samples are clipped to [-1, 1]. */
  inputFormat?: SampleFormat
}

/**
 * Streams mono audio from one rate to another, band-limited, and out as PCM16 little-endian: what a
 * speech provider needs between the 16 kHz PCM16 of an openmic call and a provider's own format
 * (OpenAI's 24 kHz, float32 samples...).
 *
 * Feed it chunks as they arrive with {@link Resampler.write}, whatever their size: a sample split
 * across two chunks is joined, and the filter's state runs on from one chunk to the next, so a
 * stream resampled in pieces equals the stream resampled at once. {@link Resampler.end} gives the
 * tail. The output keeps the duration: `round(inputSamples * toRate / fromRate)` samples in all.
 *
 * @example
 * const to16k = new Resampler({ fromRate: 24_000, toRate: 16_000 })
 * response.on('data', (chunk) => emitAudio(to16k.write(chunk)))
 * response.on('end', () => emitAudio(to16k.end()))
 */
export class Resampler {
  private readonly up: number
  private readonly down: number
  private readonly phases: Float64Array[]
  private readonly tapsPerPhase: number
  /** Offset of the filter's centre, in upsampled samples: the output is not delayed. */
  private readonly delay: number
  private readonly bytesPerSample: number
  private readonly inputFormat: SampleFormat
  private readonly inputRate: number
  /** Input samples still needed, the oldest first; `samples[0]` is input number `first`. */
  private samples: Float64Array
  private first: number
  private received = 0
  private produced = 0
  /** Bytes of a sample split across two chunks. */
  private partial = Buffer.alloc(0)
  private ended = false

  constructor(options: ResamplerOptions) {
    const { fromRate, toRate } = options
    for (const [name, rate] of [
      ['fromRate', fromRate],
      ['toRate', toRate],
    ] as const) {
      if (!Number.isInteger(rate) || rate <= 0) {
        throw new RangeError(
          `Resampler: ${name} must be a positive whole number of Hz, got ${rate}`
        )
      }
    }
    const divisor = gcd(fromRate, toRate)
    this.up = toRate / divisor
    this.down = fromRate / divisor
    this.inputFormat = options.inputFormat ?? 'pcm16'
    this.inputRate = fromRate
    this.bytesPerSample = this.inputFormat === 'pcm16' ? 2 : 4
    if (this.up === 1 && this.down === 1) {
      this.phases = [Float64Array.of(1)]
      this.delay = 0
    } else {
      const filter = designResamplingFilter(this.up, this.down)
      this.phases = filter.phases
      this.delay = (filter.length - 1) / 2
    }
    this.tapsPerPhase = this.phases[0]!.length
    // Silence before the first sample, so the first outputs see a full filter.
    this.samples = new Float64Array(this.tapsPerPhase - 1)
    this.first = -(this.tapsPerPhase - 1)
  }

  /** Resamples one chunk of input bytes; returns the PCM16 output it completes (maybe empty). */
  write(chunk: Uint8Array): Buffer {
    if (this.ended) throw new Error('Resampler: write() after end()')
    const bytes = this.partial.length > 0 ? Buffer.concat([this.partial, chunk]) : chunk
    const whole = bytes.length - (bytes.length % this.bytesPerSample)
    this.partial = Buffer.from(bytes.subarray(whole))
    const count = whole / this.bytesPerSample
    const view = new DataView(bytes.buffer, bytes.byteOffset, whole)
    const input = new Float64Array(count)
    if (this.inputFormat === 'pcm16') {
      for (let i = 0; i < count; i++) input[i] = view.getInt16(i * 2, true)
    } else {
      for (let i = 0; i < count; i++) {
        const value = view.getFloat32(i * 4, true)
        input[i] = Math.max(-1, Math.min(1, Number.isNaN(value) ? 0 : value)) * 32767
      }
    }
    this.received += count
    this.append(input)
    return this.produce(Infinity)
  }

  /**
   * Resamples one chunk in slices of at most `sliceMs` of input, yielding each slice's output as
   * soon as it is computed: the start of a large chunk (a provider may send seconds of speech in
   * one read) can be played before the rest of it is resampled. The output is the same as
   * {@link Resampler.write}'s; empty slices are not yielded.
   */
  *writeInSlices(chunk: Uint8Array, sliceMs = 20): Generator<Buffer> {
    const sliceBytes =
      Math.max(1, Math.round((sliceMs * this.inputRate) / 1000)) * this.bytesPerSample
    for (let offset = 0; offset < chunk.length; offset += sliceBytes) {
      const audio = this.write(chunk.subarray(offset, offset + sliceBytes))
      if (audio.length > 0) yield audio
    }
  }

  /** Ends the stream: returns the last output samples. A trailing partial sample is dropped. */
  end(): Buffer {
    if (this.ended) return Buffer.alloc(0)
    this.ended = true
    const total = Math.round((this.received * this.up) / this.down)
    // Silence after the last sample lets the filter finish the samples still due.
    this.append(new Float64Array(Math.ceil(this.delay / this.up) + this.tapsPerPhase))
    return this.produce(total)
  }

  private append(input: Float64Array): void {
    const joined = new Float64Array(this.samples.length + input.length)
    joined.set(this.samples)
    joined.set(input, this.samples.length)
    this.samples = joined
  }

  /** Computes every output sample whose input is there, up to `limit` outputs in all. */
  private produce(limit: number): Buffer {
    const { up, down, phases, tapsPerPhase, delay, samples, first } = this
    // Output n needs input floor((n * down + delay) / up), which must have come.
    const ready = Math.ceil(((first + samples.length) * up - delay) / down)
    const count = Math.max(0, Math.min(limit, ready) - this.produced)
    const out = Buffer.allocUnsafe(count * 2)
    let position = this.produced * down + delay
    for (let i = 0; i < count; i++, position += down) {
      const newest = Math.floor(position / up)
      const taps = phases[position - newest * up]!
      const start = newest - first
      // Four running sums: one sum would wait on each addition before the next
      let a = 0
      let b = 0
      let c = 0
      let d = 0
      let k = 0
      for (; k + 3 < tapsPerPhase; k += 4) {
        a += taps[k]! * samples[start - k]!
        b += taps[k + 1]! * samples[start - k - 1]!
        c += taps[k + 2]! * samples[start - k - 2]!
        d += taps[k + 3]! * samples[start - k - 3]!
      }
      for (; k < tapsPerPhase; k++) a += taps[k]! * samples[start - k]!
      const sum = a + b + (c + d)
      out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(sum))), i * 2)
    }
    this.produced += count
    // Keep what the next outputs still reach back to.
    const oldestNeeded = Math.floor((this.produced * down + delay) / up) - (tapsPerPhase - 1)
    const drop = Math.max(0, Math.min(oldestNeeded - first, samples.length))
    if (drop > 0) {
      this.samples = samples.subarray(drop)
      this.first += drop
    }
    return out
  }
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b)
}
