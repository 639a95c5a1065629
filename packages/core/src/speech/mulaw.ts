/**
 * G.711 μ-law, the telephone codec: 8-bit codes for 14-bit linear samples, the format of Twilio
 * Media Streams (`audio/x-mulaw`, 8 kHz, mono). Codes are stored inverted (all bits flipped) as the
 * standard has it, so silence is `0xFF` and a line of idle bits never encodes a loud sample.
 */

/** Added to the magnitude before it is cut into segments: 33 in 14-bit units, times 4 for 16 bits. */
const BIAS = 0x84
/** Largest magnitude that fits once biased (32635 + 132 = 32767): louder samples are clipped. */
const CLIP = 32635

/** The 16-bit sample of every code, computed once: decoding is one look-up per byte. */
const DECODED = buildDecodeTable()

/** The segment (exponent) of a biased magnitude, by its bits 14..7: the position of its top bit. */
const SEGMENT = buildSegmentTable()

/**
 * Encodes PCM16 little-endian mono samples as G.711 μ-law, one byte per sample (bias 0x84, clip
 * 32635, bits inverted). The sample rate is kept: Twilio wants 8 kHz, so resample first.
 *
 * Only whole samples are encoded: an odd trailing byte (half a sample) is ignored, and the output
 * has `floor(pcm16.length / 2)` bytes. A caller streaming audio in pieces keeps that byte for the
 * next piece.
 */
export function encodeMulaw(pcm16: Uint8Array): Buffer {
  const count = pcm16.length >> 1
  const out = Buffer.allocUnsafe(count)
  const view = new DataView(pcm16.buffer, pcm16.byteOffset, count * 2)
  for (let i = 0; i < count; i++) out[i] = encodeSample(view.getInt16(i * 2, true))
  return out
}

/**
 * Decodes G.711 μ-law bytes to PCM16 little-endian mono, two bytes per code, at the same sample
 * rate. Codes 0xFF and 0x7F (the two zeros of the code) both give 0.
 */
export function decodeMulaw(mulaw: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(mulaw.length * 2)
  for (let i = 0; i < mulaw.length; i++) out.writeInt16LE(DECODED[mulaw[i]!]!, i * 2)
  return out
}

/** One 16-bit sample to its μ-law code. */
function encodeSample(sample: number): number {
  // The sign bit goes in bit 7; the magnitude of -32768 is clipped like any loud sample.
  const sign = sample < 0 ? 0x80 : 0
  const magnitude = Math.min(sign ? -sample : sample, CLIP) + BIAS
  const segment = SEGMENT[magnitude >> 7]!
  const mantissa = (magnitude >> (segment + 3)) & 0x0f
  return ~(sign | (segment << 4) | mantissa) & 0xff
}

function buildDecodeTable(): Int16Array {
  const table = new Int16Array(256)
  for (let code = 0; code < 256; code++) {
    const bits = ~code & 0xff
    const segment = (bits >> 4) & 0x07
    const mantissa = bits & 0x0f
    // The middle of the code's interval: mantissa and a half step, shifted by the segment.
    const magnitude = (((mantissa << 3) + BIAS) << segment) - BIAS
    table[code] = bits & 0x80 ? -magnitude : magnitude
  }
  return table
}

function buildSegmentTable(): Uint8Array {
  // Indexed by a biased magnitude >> 7, in 1..255: segment s covers [2^s, 2^(s+1)).
  const table = new Uint8Array(256)
  for (let i = 1; i < 256; i++) table[i] = 31 - Math.clz32(i)
  return table
}
