import { encodeWav } from '@openmic/testing'
/** Timeline of the fake microphone (Chromium loops the file). */
export const VOICE = {
  /** Silence before the voice, in seconds. */
  start: 2,
  /** Length of the voice, in seconds. */
  length: 1.2,
  /** Length of the whole file, in seconds. */
  loop: 5,
  /** Pitch of the voice (a sine, amplitude-modulated like syllables). */
  hz: 220,
}

/**
 * A mono 16-bit WAV at `rate` Hz: silence, then a 220 Hz "voice", then silence (see {@link VOICE}).
 * `pause`: the voice stops `at` seconds into it for `length` seconds, then goes on (its length
 * stays {@link VOICE.length}).
 */
export function makeVoiceWav(rate = 48000, pause?: { at: number; length: number }): Buffer {
  const samples = Math.round(VOICE.loop * rate)
  const data = Buffer.alloc(samples * 2)
  const pauseStart = VOICE.start + (pause?.at ?? 0)
  const pauseLength = pause?.length ?? 0
  for (let i = 0; i < samples; i++) {
    const t = i / rate
    let s = 0
    const inPause = t >= pauseStart && t < pauseStart + pauseLength
    if (t >= VOICE.start && t < VOICE.start + VOICE.length + pauseLength && !inPause) {
      const syllables = 0.8 + 0.2 * Math.sin(2 * Math.PI * 3 * t)
      s = 0.3 * syllables * Math.sin(2 * Math.PI * VOICE.hz * t)
    }
    data.writeInt16LE(Math.round(s * 32767), i * 2)
  }
  return wavFile(data, rate)
}

/** A WAV file of mono PCM16 `data` at `rate` Hz. */
/** A WAV file of PCM16 mono `data` (the shared helper of @openmic/testing). */
export const wavFile = encodeWav

/** A tone as PCM16 16 kHz (what the scripted TTS "says"). */
export function tonePcm16(seconds: number, hz = 440, amplitude = 0.3): Buffer {
  const samples = Math.round(seconds * 16000)
  const out = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    out.writeInt16LE(
      Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * hz * i) / 16000)),
      i * 2
    )
  }
  return out
}

/** Frequency of a tone in PCM16 at `rate`, from its zero crossings. */
export function toneFrequency(pcm: Int16Array, rate = 16000): number {
  let crossings = 0
  for (let i = 1; i < pcm.length; i++) {
    if ((pcm[i - 1]! < 0 && pcm[i]! >= 0) || (pcm[i - 1]! >= 0 && pcm[i]! < 0)) crossings++
  }
  return crossings / 2 / (pcm.length / rate)
}
