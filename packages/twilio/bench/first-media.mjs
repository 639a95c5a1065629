// Time from the caller's last speech frame to the first audio frame back, on a phone line
// (TwilioServer, a FakeTwilioCall streaming mu-law in real time) and on the WebSocket path
// (MicdropServer, a `ws` client streaming PCM16), with zero-latency providers (core's mocks) on
// both, in the same run, alternating turn by turn. Run after `pnpm build`:
//
//   node packages/twilio/bench/first-media.mjs        (N=60 turns a path; N=200 for more)
//
// Only the framework is timed, not the wait for silence: both servers hear the turns with the same
// scripted VAD (MicdropServer's `vad` option on the WebSocket), which ends the speech on the last
// speech frame itself (no `silenceMs`).
import { performance } from 'node:perf_hooks'
import { MockAgent, MockSTT, MockTTS, VAD } from '@openmic/core'
import { MicdropServer } from '@openmic/server'
import { quantile } from '@openmic/testing'
import { FakeTwilioCall } from '@openmic/testing/twilio'
import { WebSocket, WebSocketServer } from 'ws'
import { TwilioServer } from '../dist/index.js'

const N = Number(process.env.N ?? 60)
const WARM_UP = 5
const SPEECH_MS = 400
const FRAME_MS = 20

/** PCM16 16 kHz: `ms` of a loud tone, the caller's "voice". */
function voice(ms) {
  const pcm = Buffer.alloc(ms * 32)
  for (let i = 0; i < ms * 16; i++) {
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / 16000)), i * 2)
  }
  return pcm
}

/**
 * A VAD that knows the script: speech starts at the first loud sample and ends the moment
 * `SPEECH_MS` of audio from there was given, that is on the caller's last speech frame. The
 * speech's last samples, after that end, are not a new utterance: a start is looked for only from
 * `SPEECH_MS` after the last one (else a phantom utterance would follow each turn, and join the
 * turn whenever its first frame came before the transcript: a turn of 400 ms instead of 1).
 */
class ScriptedVAD extends VAD {
  position = 0
  startedAt = -1
  /** Where the last utterance's speech ends: no start is looked for before. */
  speechEnd = 0

  process(audio) {
    const samples = audio.length >> 1
    if (this.startedAt < 0) {
      for (let i = Math.max(0, this.speechEnd - this.position); i < samples; i++) {
        if (Math.abs(audio.readInt16LE(i * 2)) > 2000) {
          this.startedAt = this.position + i
          this.emit('SpeechStart', { atMs: this.startedAt / 16 })
          break
        }
      }
    }
    this.position += samples
    // Ends within the last speech frame: a frame before the resampler's delay lets its last
    // samples out
    if (this.startedAt >= 0 && this.position - this.startedAt >= (SPEECH_MS - FRAME_MS) * 16) {
      this.emit('SpeechEnd', { atMs: this.position / 16 })
      this.speechEnd = this.startedAt + SPEECH_MS * 16
      this.startedAt = -1
    }
  }

  reset() {
    this.startedAt = -1
  }
}

const providers = () => ({
  agent: new MockAgent({ answers: ['Okay.'] }),
  stt: new MockSTT({ utterances: ['Hello.'] }),
  tts: new MockTTS(),
})

async function listen(onConnection) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => wss.once('listening', resolve))
  wss.on('connection', onConnection)
  return { wss, url: `ws://127.0.0.1:${wss.address().port}` }
}

const until = async (predicate, what, timeoutMs = 5000) => {
  const deadline = performance.now() + timeoutMs
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`No ${what} in ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
}

/** The phone path: one call, one turn per `turn()`. */
async function phonePath() {
  const { wss, url } = await listen((socket) => {
    new TwilioServer(socket, { ...providers(), vad: new ScriptedVAD() })
  })
  const call = await FakeTwilioCall.connect({ url })
  const speech = voice(SPEECH_MS)
  const isSpeech = (message) =>
    message.event === 'media' &&
    Buffer.from(message.media.payload, 'base64').some((b) => b !== 0xff)
  return {
    name: 'phone (TwilioServer, μ-law)',
    async turn() {
      const sentBefore = call.sent.length
      const receivedBefore = call.received.length
      const utterance = call.say(speech)
      await until(
        () => call.received.slice(receivedBefore).some((f) => f.message?.event === 'media'),
        'answer audio'
      )
      const last = call.sent
        .slice(sentBefore)
        .filter((s) => isSpeech(s.message) && s.atMs <= utterance.endMs)
        .at(-1)
      const first = call.received.slice(receivedBefore).find((f) => f.message?.event === 'media')
      await until(() => call.queuedMs === 0 && !call.speaking, 'the answer played')
      return first.atMs - last.atMs
    },
    async close() {
      await call.drop()
      await new Promise((resolve) => wss.close(resolve))
    },
  }
}

/** The WebSocket path: a client that streams PCM16 in 20 ms frames; the server hears the turns. */
async function webSocketPath() {
  const { wss, url } = await listen((socket) => {
    new MicdropServer(socket, { ...providers(), vad: new ScriptedVAD() })
  })
  const socket = new WebSocket(url)
  await new Promise((resolve) => socket.once('open', resolve))
  let firstAudioAt
  socket.on('message', (data, isBinary) => {
    if (isBinary) firstAudioAt ??= performance.now()
  })
  const speech = voice(SPEECH_MS)
  const frameBytes = FRAME_MS * 32
  return {
    name: 'WebSocket (MicdropServer, PCM16)',
    async turn() {
      firstAudioAt = undefined
      const start = performance.now()
      let lastAt = 0
      for (let i = 0; i * frameBytes < speech.length; i++) {
        // Real-time pace, against the start: as the phone's frames come
        const due = start + i * FRAME_MS
        while (performance.now() < due) await new Promise((resolve) => setTimeout(resolve, 1))
        socket.send(speech.subarray(i * frameBytes, (i + 1) * frameBytes))
        lastAt = performance.now()
      }
      await until(() => firstAudioAt !== undefined, 'answer audio')
      const took = firstAudioAt - lastAt
      await new Promise((resolve) => setTimeout(resolve, 100)) // the answer plays (50 ms of tone)
      return took
    },
    async close() {
      socket.close()
      await new Promise((resolve) => wss.close(resolve))
    },
  }
}

const paths = [await phonePath(), await webSocketPath()]
const times = paths.map(() => [])
for (let round = 0; round < WARM_UP + N; round++) {
  // Alternating which goes first, so that neither always runs right after the other
  const order = round % 2 === 0 ? [0, 1] : [1, 0]
  for (const index of order) {
    const ms = await paths[index].turn()
    if (round >= WARM_UP) times[index].push(ms)
  }
}
for (const path of paths) await path.close()

const f = (ms) => ms.toFixed(1)
console.log(`\nlast speech frame → first audio frame back, ms (${N} turns a path, alternating)\n`)
console.log('| path | median | p90 | p99 | max |')
console.log('| --- | ---: | ---: | ---: | ---: |')
paths.forEach((path, i) => {
  const t = times[i]
  console.log(
    `| ${path.name} | ${f(quantile(t, 0.5))} | ${f(quantile(t, 0.9))} | ${f(quantile(t, 0.99))} | ${f(Math.max(...t))} |`
  )
})
console.log(
  `\nmedian difference, phone − WebSocket: ${f(quantile(times[0], 0.5) - quantile(times[1], 0.5))} ms`
)
