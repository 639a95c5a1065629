// Latency of @openmic/local: `pnpm --filter @openmic/local bench` (builds first through turbo).
// - STT finalize: audio streamed in 100 ms frames at real-time pace (as from a microphone), then the
//   stream ends; time from the end of the audio to the Transcript event.
// - TTS first audio: time from speak() (the answer's text at once) to the first Audio event, with
//   flite in-process (LocalTTS) and, for comparison, the `flite` command in a child process.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { LocalSTT, LocalTTS } from '../dist/index.js'

const RUNS = 20
const FRAME_BYTES = 3200 // 100 ms of PCM16 16 kHz
const QUESTIONS = [
  'What time is it?',
  'Goodbye.',
  'Hello, how are you today?',
  'Thank you very much.',
]
const ANSWER = 'It is ten forty two in the evening. Is there anything else I can do for you?'

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

function row(name, values) {
  const cells = [name, percentile(values, 50).toFixed(1), percentile(values, 90).toFixed(1)]
  return `| ${cells.join(' | ')} | ${values.length} |`
}

function speakAll(tts, text) {
  return new Promise((resolve) => {
    const chunks = []
    const onAudio = (chunk) => chunks.push(chunk)
    tts.on('Audio', onAudio)
    tts.once('AudioEnd', () => {
      tts.off('Audio', onAudio)
      resolve(Buffer.concat(chunks))
    })
    tts.speak(Readable.from([text]))
  })
}

async function finalizeTimes(stt, clips) {
  const times = []
  for (let run = 0; run < RUNS; run++) {
    const audio = clips[run % clips.length]
    const stream = new Readable({ read() {} })
    let endedAt = 0
    const transcript = new Promise((resolve) => stt.once('Transcript', resolve))
    stt.transcribe(stream)
    for (let start = 0; start < audio.length; start += FRAME_BYTES) {
      stream.push(audio.subarray(start, start + FRAME_BYTES))
      await sleep(100)
    }
    endedAt = performance.now()
    stream.push(null)
    await transcript
    times.push(performance.now() - endedAt)
  }
  return times
}

async function firstAudioTimes(tts) {
  const times = []
  for (let run = 0; run < RUNS; run++) {
    const startedAt = performance.now()
    const first = new Promise((resolve) => tts.once('Audio', () => resolve(performance.now())))
    const done = new Promise((resolve) => tts.once('AudioEnd', resolve))
    tts.speak(Readable.from([ANSWER]))
    times.push((await first) - startedAt)
    await done
  }
  return times
}

async function childProcessTimes() {
  const dir = mkdtempSync(join(tmpdir(), 'openmic-bench-'))
  const firstSentence = ANSWER.slice(0, ANSWER.indexOf('.') + 1)
  const times = []
  for (let run = 0; run < RUNS; run++) {
    const startedAt = performance.now()
    await new Promise((resolve, reject) =>
      execFile('flite', ['-voice', 'slt', '-t', firstSentence, '-o', join(dir, 'out.wav')], (e) =>
        e ? reject(e) : resolve()
      )
    )
    times.push(performance.now() - startedAt)
  }
  rmSync(dir, { recursive: true })
  return times
}

const tts = new LocalTTS()
await tts.ready()
const clips = []
for (const question of QUESTIONS) clips.push(await speakAll(tts, question))

const lines = ['| metric (ms) | p50 | p90 | runs |', '| --- | --- | --- | --- |']
const modes = [
  ['STT finalize, default (fwdflat no, bestpath no)', {}],
  ['STT finalize, `args: { fwdflat: "yes" }`', { args: { fwdflat: 'yes' } }],
]
for (const [name, options] of modes) {
  const loadStart = performance.now()
  const stt = new LocalSTT(options)
  await stt.ready()
  const loadMs = performance.now() - loadStart
  lines.push(row(name, await finalizeTimes(stt, clips)))
  lines.push(row('  (model load, once per LocalSTT)', [loadMs]))
  stt.destroy()
}
lines.push(row('TTS first audio, LocalTTS (flite in-process, worker)', await firstAudioTimes(tts)))
lines.push(row('TTS first audio, `flite` child process (1st sentence)', await childProcessTimes()))
tts.destroy()

console.log(lines.join('\n'))
console.log(
  `\nNode ${process.version}, ${process.arch}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`
)
