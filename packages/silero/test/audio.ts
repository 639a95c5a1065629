import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Resampler } from '@openmic/core/provider'

const run = promisify(execFile)

/** Samples per ms at 16 kHz. */
export const PER_MS = 16

/** PCM16 samples of a WAV file's `data` chunk, with the file's sample rate. */
function readWav(wav: Buffer): { samples: Buffer; rate: number } {
  const rate = wav.readUInt32LE(24)
  let offset = 12
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4)
    const size = wav.readUInt32LE(offset + 4)
    if (id === 'data') return { samples: wav.subarray(offset + 8, offset + 8 + size), rate }
    offset += 8 + size + (size % 2)
  }
  throw new Error('no data chunk in the WAV file')
}

/**
 * `text` spoken by the `flite` command (Debian package `flite`), as PCM16 16 kHz mono. `kal` is
 * flite's 8 kHz voice, the quality of a phone line: it is resampled to 16 kHz with core's
 * Resampler, as a phone call's audio would be.
 */
export async function speak(text: string, voice: 'slt' | 'kal' | 'rms' = 'slt'): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'openmic-silero-'))
  try {
    const file = join(dir, 'speech.wav')
    await run('flite', ['-voice', voice, '-t', text, '-o', file])
    const { samples, rate } = readWav(await readFile(file))
    if (rate === 16_000) return Buffer.from(samples)
    const resampler = new Resampler({ fromRate: rate, toRate: 16_000 })
    return Buffer.concat([resampler.write(samples), resampler.end()])
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** `ms` of digital silence. */
export function silence(ms: number): Buffer {
  return Buffer.alloc(ms * PER_MS * 2)
}

/** Deterministic white noise (a fixed-seed generator), `ms` long, at `dbfs` RMS. */
export function whiteNoise(ms: number, dbfs: number, seed = 1): Buffer {
  const rms = 32768 * 10 ** (dbfs / 20)
  // Uniform noise in [-a, a] has an RMS of a / sqrt(3).
  const amplitude = rms * Math.sqrt(3)
  const out = Buffer.alloc(ms * PER_MS * 2)
  let state = seed
  for (let i = 0; i < out.length / 2; i++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0
    const value = (state / 2 ** 32) * 2 - 1
    out.writeInt16LE(Math.round(value * amplitude), i * 2)
  }
  return out
}

/** `speech` with `noise` added sample by sample (the noise repeats if shorter), clipped. */
export function mix(speech: Buffer, noise: Buffer): Buffer {
  const out = Buffer.alloc(speech.length)
  for (let i = 0; i < speech.length / 2; i++) {
    const sum = speech.readInt16LE(i * 2) + noise.readInt16LE((i * 2) % noise.length)
    out.writeInt16LE(Math.max(-32768, Math.min(32767, sum)), i * 2)
  }
  return out
}

/**
 * A cough-like burst: `ms` of decaying noise at full scale, loud enough that a VAD without a
 * minimum speech time may take it for speech.
 */
export function burst(ms: number, seed = 7): Buffer {
  const noise = whiteNoise(ms, -6, seed)
  const samples = noise.length / 2
  for (let i = 0; i < samples; i++) {
    const envelope = Math.exp((-3 * i) / samples)
    noise.writeInt16LE(Math.round(noise.readInt16LE(i * 2) * envelope), i * 2)
  }
  return noise
}

/**
 * Where the voice is in `audio`, in ms: the first and the last 10 ms block whose RMS is at least
 * -35 dBFS. Blocks, not samples: flite's 8 kHz voice starts with a few quiet clicks and a hiss
 * that are not voice.
 */
export function voiceSpan(audio: Buffer): { startMs: number; endMs: number } {
  const block = 10 * PER_MS
  const loud = (32768 * 10 ** (-35 / 20)) ** 2 * block
  let first = -1
  let last = -1
  for (let index = 0; (index + 1) * block * 2 <= audio.length; index++) {
    let energy = 0
    for (let i = index * block; i < (index + 1) * block; i++)
      energy += audio.readInt16LE(i * 2) ** 2
    if (energy >= loud) {
      if (first < 0) first = index
      last = index
    }
  }
  if (first < 0) throw new Error('no voice in the audio')
  return { startMs: first * 10, endMs: (last + 1) * 10 }
}

/** Duration of PCM16 16 kHz audio, in ms. */
export function durationMs(audio: Buffer): number {
  return audio.length / 2 / PER_MS
}
