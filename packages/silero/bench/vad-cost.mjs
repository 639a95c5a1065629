#!/usr/bin/env node
// What SileroVAD costs a server and how late it says the user stopped, on flite speech.
//
//   pnpm --filter @openmic/silero build && pnpm --filter @openmic/silero bench [-- --runs 7]
//
// 1. CPU per second of audio (median of several runs over ~40 s of speech and pauses), so how
//    many calls one core can follow with the VAD alone, and with RnnoiseDenoiser in front of it
//    (the runs of the two taken in turns, so that both see the same machine).
// 2. The model's raw cost per 32 ms window, each in a fresh process, on onnxruntime-node (used) and onnxruntime-web's wasm
//    backend in Node (the same model, as @ricky0123/vad-web runs it in a browser), for the choice.
// 3. End of speech: SpeechEnd's atMs against the real end of the voice, and the audio position
//    at which it fires (audio fed one window at a time, each analysed before the next).
// 4. False starts and missed sentences on noisy speech (synthetic noises), with and without
//    RnnoiseDenoiser in front of the VAD, and what the denoiser costs.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { RnnoiseDenoiser, SileroVAD } from '../dist/index.js'
import { mix, noise, NOISE_KINDS } from './noise.mjs'
import { PER_MS, silence, speak, trimmed } from './flite.mjs'

const runsArg = process.argv.indexOf('--runs')
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5
const SENTENCES = [
  'Hello, I would like to book a table for two tonight.',
  'What time is it?',
  'Could you call me back tomorrow morning please.',
  'No, I do not think so.',
  'My name is John and I need a new password.',
]
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const fmt = (value, digits = 1) => value.toFixed(digits)

/** Sentences with 1.2 s pauses; where each voice ends (ms). */
function layout(voices) {
  const parts = [silence(800)]
  const ends = []
  let ms = 800
  for (const voice of voices) {
    parts.push(voice, silence(1200))
    ms += voice.length / 2 / PER_MS
    ends.push(ms)
    ms += 1200
  }
  return { audio: Buffer.concat(parts), ends }
}

/** CPU ms per second of audio of one call's VAD, with a denoiser in front of it or not. */
async function cpuPerAudioSecond(audio, denoise) {
  const vad = new SileroVAD()
  const denoiser = denoise ? await RnnoiseDenoiser.create() : undefined
  const before = process.cpuUsage()
  // 20 ms pieces, as a call's audio comes.
  for (let offset = 0; offset < audio.length; offset += 640) {
    const piece = audio.subarray(offset, offset + 640)
    vad.process(denoiser ? denoiser.process(piece) : piece)
  }
  await vad.idle()
  const used = process.cpuUsage(before)
  vad.destroy()
  denoiser?.destroy()
  return (used.user + used.system) / 1000 / (audio.length / 2 / 16_000)
}

/** The median of RUNS runs of the VAD alone and of VAD + denoise, taken in turns. */
async function callCost(audio) {
  const alone = []
  const denoised = []
  for (let run = 0; run < RUNS; run++) {
    alone.push(await cpuPerAudioSecond(audio, false))
    denoised.push(await cpuPerAudioSecond(audio, true))
  }
  return { alone: median(alone), denoised: median(denoised) }
}

/** The model alone on one runtime, measured in a fresh process (bench/raw-window-cost.mjs). */
function rawWindowCost(runtime) {
  const script = fileURLToPath(new URL('./raw-window-cost.mjs', import.meta.url))
  const output = execFileSync(process.execPath, [script, runtime, String(RUNS)], {
    encoding: 'utf8',
  })
  return JSON.parse(output.trim().split('\n').pop())
}

async function endOfSpeech(audio, ends, silenceMs) {
  const vad = new SileroVAD({ silenceMs })
  const rows = []
  let fed = 0
  vad.on('SpeechEnd', ({ atMs }) => rows.push({ atMs, firedMs: fed / 2 / PER_MS }))
  for (; fed < audio.length;) {
    const next = Math.min(fed + 1024, audio.length)
    vad.process(audio.subarray(fed, next))
    fed = next
    await vad.idle()
  }
  vad.destroy()
  return rows.map((row, i) => ({ ...row, voiceEndMs: ends[i] }))
}

const voices = {}
for (const voice of ['slt', 'kal']) {
  voices[voice] = await Promise.all(
    SENTENCES.map(async (text) => trimmed(await speak(text, voice)))
  )
}
await Promise.all([SileroVAD.warmUp(), RnnoiseDenoiser.warmUp()])

console.log(`SileroVAD cost per call (median of ${RUNS} runs, this process's CPU time)\n`)
console.log(
  '| audio | seconds | VAD alone: CPU ms per s of audio | calls per core | VAD + RnnoiseDenoiser: CPU ms per s | calls per core |'
)
console.log('| --- | --- | --- | --- | --- | --- |')
for (const [voice, list] of Object.entries(voices)) {
  const { audio } = layout([...list, ...list, ...list])
  const { alone, denoised } = await callCost(audio)
  const label = voice === 'kal' ? 'flite kal, 8 kHz → 16 kHz' : 'flite slt, 16 kHz'
  console.log(
    `| ${label} | ${fmt(audio.length / 32000, 0)} | ${fmt(alone, 2)} | ${fmt(1000 / alone, 0)} | ${fmt(denoised, 2)} | ${fmt(1000 / denoised, 0)} |`
  )
}

const nodeCost = rawWindowCost('node')
const webCost = rawWindowCost('web')
console.log(
  '\nModel alone in a fresh process, CPU ms per 32 ms window: first 16 s of audio, then after 64 s (median)\n'
)
console.log(
  '| runtime | load (ms) | first 16 s | after 64 s | ms per s of audio | calls per core |'
)
console.log('| --- | --- | --- | --- | --- | --- |')
for (const [name, cost] of [
  ['onnxruntime-node (CPU, 1 thread)', nodeCost],
  ['onnxruntime-web (wasm, 1 thread)', webCost],
]) {
  const perSecond = cost.steady * 31.25
  console.log(
    `| ${name} | ${fmt(cost.loadMs, 0)} | ${fmt(cost.first, 3)} | ${fmt(cost.steady, 3)} | ${fmt(perSecond, 2)} | ${fmt(1000 / perSecond, 0)} |`
  )
}

console.log(
  '\nEnd of speech (ms): SpeechEnd atMs and the audio position it fires at, after the voice ends\n'
)
console.log(
  '| audio | silenceMs | sentences | atMs − voice end (median, max) | fires after voice end (median, max) |'
)
console.log('| --- | --- | --- | --- | --- |')
for (const [voice, list] of Object.entries(voices)) {
  const { audio, ends } = layout(list)
  for (const silenceMs of [300, 600]) {
    const rows = await endOfSpeech(audio, ends, silenceMs)
    const at = rows.map((row) => row.atMs - row.voiceEndMs)
    const fired = rows.map((row) => row.firedMs - row.voiceEndMs)
    console.log(
      `| flite ${voice} | ${silenceMs} | ${rows.length}/${ends.length} | ${fmt(median(at), 0)}, ${fmt(Math.max(...at), 0)} | ${fmt(median(fired), 0)}, ${fmt(Math.max(...fired), 0)} |`
    )
  }
}

/** Sentences with 2.5 s pauses, and where each voice is (ms). */
function spaced(list) {
  const parts = [silence(1500)]
  const spans = []
  let ms = 1500
  for (const voice of list) {
    const length = voice.length / 2 / PER_MS
    spans.push([ms, ms + length])
    parts.push(voice, silence(2500))
    ms += length + 2500
  }
  return { audio: Buffer.concat(parts), spans }
}

/** SpeechStarts outside every sentence (300 ms of slack before one), and sentences missed. */
async function falseStarts(audio, spans, minSpeechMs) {
  const vad = new SileroVAD({ minSpeechMs })
  const starts = []
  vad.on('SpeechStart', ({ atMs }) => starts.push(atMs))
  vad.process(audio)
  await vad.idle()
  vad.destroy()
  const inside = (atMs) => spans.some(([start, end]) => atMs >= start - 300 && atMs <= end)
  const heard = spans.filter(([start, end]) =>
    starts.some((atMs) => atMs >= start - 300 && atMs <= end)
  )
  return {
    falseStarts: starts.filter((atMs) => !inside(atMs)).length,
    missed: spans.length - heard.length,
  }
}

async function denoised(audio) {
  const denoiser = await RnnoiseDenoiser.create()
  const before = process.cpuUsage()
  const out = Buffer.concat([denoiser.process(audio)])
  const used = process.cpuUsage(before)
  denoiser.destroy()
  return { out, msPerSecond: (used.user + used.system) / 1000 / (audio.length / 32_000) }
}

const { audio: speech, spans } = spaced(voices.kal)
const denoiseCost = []
console.log(
  `\nNoisy speech: ${spans.length} sentences (flite kal, 8 kHz → 16 kHz) in ${fmt(speech.length / 32_000, 0)} s, false starts / missed sentences\n`
)
console.log(
  '| noise | level (dBFS) | minSpeechMs 250 | with RnnoiseDenoiser | minSpeechMs 0 | with RnnoiseDenoiser |'
)
console.log('| --- | --- | --- | --- | --- | --- |')
for (const kind of NOISE_KINDS) {
  for (const dbfs of [-20, -12]) {
    const noisy = mix(speech, noise(kind, dbfs, speech.length))
    const { out, msPerSecond } = await denoised(noisy)
    denoiseCost.push(msPerSecond)
    const cells = []
    for (const minSpeechMs of [250, 0]) {
      for (const audio of [noisy, out]) {
        const { falseStarts: f, missed } = await falseStarts(audio, spans, minSpeechMs)
        cells.push(`${f} / ${missed}`)
      }
    }
    console.log(`| ${kind} | ${dbfs} | ${cells.join(' | ')} |`)
  }
}
const denoiseMs = median(denoiseCost)
console.log(
  `\nRnnoiseDenoiser (16 → 48 → 16 kHz and RNNoise): ${fmt(denoiseMs, 1)} CPU ms per s of audio (median), ${fmt(1000 / denoiseMs, 0)} calls per core`
)
