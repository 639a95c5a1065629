// Synthetic noises for the false-start measurement (deterministic: a fixed-seed generator).
const KINDS = {
  /** Flat spectrum, like line hiss. */
  white: (w) => w * Math.sqrt(3),
  /** Low-frequency rumble (integrated noise): traffic, wind. */
  brown: (w, s) => (s.b = 0.995 * s.b + w * 0.1) * 3,
  /** 50 Hz mains hum and harmonics over a little hiss. */
  hum: (w, s, i) => {
    const t = i / 16_000
    const tone = Math.sin(2 * Math.PI * 50 * t) + 0.5 * Math.sin(2 * Math.PI * 150 * t)
    return 1.2 * (tone + 0.3 * Math.sin(2 * Math.PI * 250 * t)) + w * 0.2
  },
  /** A 20 ms decaying click every 180 ms (a keyboard, a ticking clock) over faint hiss. */
  clicks: (w, s, i) => {
    const phase = i % 2880
    return phase < 320 ? w * 6 * Math.exp(-phase / 60) : w * 0.1
  },
  /** Low-passed noise whose loudness swings at 4 Hz, the syllable rate of distant talk. */
  'syllabic noise': (w, s, i) =>
    (s.b = 0.7 * s.b + w) * 1.5 * (0.5 + 0.5 * Math.sin((2 * Math.PI * 4 * i) / 16_000)),
}

export const NOISE_KINDS = Object.keys(KINDS)

/** `bytes` of PCM16 16 kHz noise of one kind at about `dbfs`. */
export function noise(kind, dbfs, bytes) {
  const shape = KINDS[kind]
  const amplitude = 32768 * 10 ** (dbfs / 20)
  const out = Buffer.alloc(bytes)
  const memory = { b: 0 }
  let seed = 9
  for (let i = 0; i < bytes / 2; i++) {
    seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0
    const value = shape((seed / 2 ** 32) * 2 - 1, memory, i) * amplitude
    out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(value))), i * 2)
  }
  return out
}

/** `a + b`, sample by sample, clipped. */
export function mix(a, b) {
  const out = Buffer.alloc(a.length)
  for (let i = 0; i < a.length / 2; i++) {
    const sum = a.readInt16LE(i * 2) + b.readInt16LE(i * 2)
    out.writeInt16LE(Math.max(-32768, Math.min(32767, sum)), i * 2)
  }
  return out
}
