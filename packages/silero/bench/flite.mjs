// flite speech for the benchmark (the tests' test/audio.ts does the same in TypeScript).
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Resampler } from '@openmic/core/provider'

const run = promisify(execFile)
export const PER_MS = 16

/** `text` spoken by flite as PCM16 16 kHz (`kal`, 8 kHz, resampled like a phone call's audio). */
export async function speak(text, voice = 'slt') {
  const dir = await mkdtemp(join(tmpdir(), 'openmic-silero-bench-'))
  try {
    const file = join(dir, 'speech.wav')
    await run('flite', ['-voice', voice, '-t', text, '-o', file])
    const wav = await readFile(file)
    const rate = wav.readUInt32LE(24)
    let offset = 12
    let samples
    while (offset + 8 <= wav.length) {
      const size = wav.readUInt32LE(offset + 4)
      if (wav.toString('ascii', offset, offset + 4) === 'data') {
        samples = wav.subarray(offset + 8, offset + 8 + size)
        break
      }
      offset += 8 + size + (size % 2)
    }
    if (rate === 16_000) return Buffer.from(samples)
    const resampler = new Resampler({ fromRate: rate, toRate: 16_000 })
    return Buffer.concat([resampler.write(samples), resampler.end()])
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** First and last 10 ms block at or above -35 dBFS RMS, in ms (flite's quiet edges are not voice). */
export function voiceSpan(audio) {
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
  return { startMs: first * 10, endMs: (last + 1) * 10 }
}

/** The voice of `audio` alone, flite's quiet start and end cut off. */
export function trimmed(audio) {
  const { startMs, endMs } = voiceSpan(audio)
  return audio.subarray(startMs * PER_MS * 2, endMs * PER_MS * 2)
}

export function silence(ms) {
  return Buffer.alloc(ms * PER_MS * 2)
}

/** Deterministic white noise at `dbfs` RMS. */
export function whiteNoise(ms, dbfs, seed = 1) {
  const amplitude = 32768 * 10 ** (dbfs / 20) * Math.sqrt(3)
  const out = Buffer.alloc(ms * PER_MS * 2)
  let state = seed
  for (let i = 0; i < out.length / 2; i++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0
    out.writeInt16LE(Math.round(((state / 2 ** 32) * 2 - 1) * amplitude), i * 2)
  }
  return out
}
