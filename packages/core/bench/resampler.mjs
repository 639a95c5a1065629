// CPU the Resampler takes per second of audio, for the rate pairs openmic's providers and phone
// lines use (24 kHz OpenAI and Mistral speech, 8 kHz phone audio, 22.05 and 44.1 kHz TTS, 48 kHz
// denoising), fed in 100 ms chunks as a provider's stream comes. Each figure is the median of 7
// runs over 5 s of audio (a mix of two tones), after one run to warm up; the `ms per 100 ms
// chunk` column is what one chunk adds to the latency of the audio it carries.
// Run: pnpm --filter @openmic/core bench   (build first)
import { Resampler } from '../dist/provider.js'

const PAIRS = [
  [24_000, 16_000, 'OpenAI / Mistral speech → call'],
  [16_000, 24_000, 'call → OpenAI STT, realtime'],
  [8_000, 16_000, 'phone line → call'],
  [16_000, 8_000, 'call → phone line'],
  [22_050, 16_000, 'TTS at 22.05 kHz → call'],
  [44_100, 16_000, 'TTS at 44.1 kHz → call'],
  [16_000, 48_000, 'call → denoiser'],
  [48_000, 16_000, 'denoiser → call'],
]
const SECONDS = 5
const RUNS = 7

function tones(rate) {
  const audio = Buffer.alloc(rate * 2 * SECONDS)
  for (let i = 0; i < rate * SECONDS; i++) {
    const t = i / rate
    const sample = 8000 * Math.sin(2 * Math.PI * 220 * t) + 3000 * Math.sin(2 * Math.PI * 1500 * t)
    audio.writeInt16LE(Math.round(sample), i * 2)
  }
  return audio
}

function resampleAll(audio, fromRate, toRate) {
  const chunkBytes = (fromRate / 10) * 2
  const resampler = new Resampler({ fromRate, toRate })
  const started = process.cpuUsage()
  for (let offset = 0; offset < audio.length; offset += chunkBytes) {
    resampler.write(audio.subarray(offset, offset + chunkBytes))
  }
  resampler.end()
  const { user, system } = process.cpuUsage(started)
  return (user + system) / 1000
}

console.log('| from → to | used for | ms CPU per s of audio | ms per 100 ms chunk |')
console.log('|---|---|---|---|')
for (const [fromRate, toRate, use] of PAIRS) {
  const audio = tones(fromRate)
  resampleAll(audio, fromRate, toRate)
  const runs = Array.from({ length: RUNS }, () => resampleAll(audio, fromRate, toRate) / SECONDS)
  const median = runs.sort((a, b) => a - b)[Math.floor(RUNS / 2)]
  console.log(
    `| ${fromRate / 1000} → ${toRate / 1000} kHz | ${use} | ${median.toFixed(2)} | ${(median / 10).toFixed(3)} |`
  )
}
