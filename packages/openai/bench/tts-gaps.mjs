// Silence between sentences heard at the client, OpenaiTTS against the fake speech server with
// scripted latencies: each request's first byte after 200 ms, audio paced in real time (the
// provider generates at playback speed). A three-sentence answer is streamed word by word (10 ms
// apart, as a model writes it) into two TTS side by side in the same run: OpenaiTTS as it is
// (lookahead 1: the next sentence's request starts while the previous one streams) and Micdrop's
// sequential strategy (lookahead 0: the next request starts once the previous body has ended).
//
// The client is modelled as a player that plays each Audio chunk as soon as it arrives, or after
// what it already holds: a chunk arriving after the held audio ran out leaves silence. Silence at
// the first chunk of a sentence (the 2nd and 3rd) is the gap between sentences; the rest is
// silence inside sentences (the real-time pacing's jitter, and the resampler's filter delay when a
// sentence starts from an empty player). `ready ahead` is how much audio the player still held
// when a sentence's first audio came (negative: how long it had been silent). `excess` is the time
// from the first audio to the end of playback, minus the audio's own duration.
//
// Run: pnpm --filter @openmic/openai build && pnpm --filter @openmic/openai bench:tts [runs]
import { createFakeOpenaiSpeech, RealtimePlayer, streamPieces } from '@openmic/testing'
import { audioBytes, audioMs } from '@openmic/core/provider'
import { OpenaiTTS } from '../dist/index.js'

const RUNS = Number(process.argv[2] ?? 20)
const FIRST_BYTE_MS = 200
const WORD_GAP_MS = 10
const ANSWER = [
  'Sure, I can help you with that.',
  'The weather in Paris is sunny today, with a light wind.',
  'Would you like the forecast for tomorrow as well?',
]

// 40 ms of audio per character: sentences of 1.2 to 2.2 s, each longer than the first-byte time.
const fake = await createFakeOpenaiSpeech({
  msPerCharacter: 40,
  defaultReply: { type: 'audio', firstByteMs: FIRST_BYTE_MS, chunkDelayMs: 'realtime' },
})

/** Expected PCM16 16 kHz bytes of each sentence: the fake's 24 kHz tone, resampled. */
const sentenceBytes = ANSWER.map((text) => {
  const samples24k = Math.round(fake.toneDurationMs(text) * 24)
  return audioBytes(samples24k / 24)
})

/** Speaks the answer once; resolves with the silences a real-time player would have heard. */
function speakOnce(lookahead) {
  const tts = new OpenaiTTS({ apiKey: 'sk-bench', baseURL: fake.baseURL, lookahead })
  return new Promise((resolve, reject) => {
    const player = new RealtimePlayer()
    let received = 0
    let sentence = 0
    let sentenceStart = 0
    const between = []
    const leads = []
    let inside = 0
    tts.on('Audio', (audio) => {
      const now = performance.now()
      const lead = player.playhead - now
      const silence = player.push(audio.length, now)
      if (received === sentenceStart && sentence > 0) {
        between.push(silence)
        leads.push(lead)
      } else inside += silence
      received += audio.length
      while (sentence < ANSWER.length && received >= sentenceStart + sentenceBytes[sentence]) {
        sentenceStart += sentenceBytes[sentence]
        sentence++
      }
    })
    tts.on('AudioEnd', () => {
      tts.destroy()
      const duration = audioMs(received)
      if (received !== sentenceStart || between.length !== ANSWER.length - 1) {
        reject(new Error(`unexpected audio: ${received} bytes, ${between.length} boundaries`))
      }
      resolve({ between, leads, inside, excess: player.playhead - player.firstAt - duration })
    })
    tts.on('Failed', reject)
    tts.speak(streamPieces(ANSWER.join(' ').split(/(?<= )/), WORD_GAP_MS))
  })
}

const strategies = { 'OpenaiTTS (lookahead 1)': 1, 'sequential (lookahead 0)': 0 }
const results = Object.fromEntries(
  Object.keys(strategies).map((name) => [name, { between: [], leads: [], inside: [], excess: [] }])
)
await Promise.all(Object.values(strategies).map((lookahead) => speakOnce(lookahead))) // warm-up
for (let run = 0; run < RUNS; run++) {
  const outcomes = await Promise.all(Object.values(strategies).map((l) => speakOnce(l)))
  Object.keys(strategies).forEach((name, i) => {
    results[name].between.push(...outcomes[i].between)
    results[name].leads.push(...outcomes[i].leads)
    results[name].inside.push(outcomes[i].inside)
    results[name].excess.push(outcomes[i].excess)
  })
}
await fake.close()

// The lower quantile (the p50 of an even count is the lower middle value): the leads of the 2nd
// and 3rd sentences are far apart, and the README's table reports the 2nd's.
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
}
const ms = (value) => `${value.toFixed(1)} ms`
const answerMs = audioMs(sentenceBytes.reduce((sum, bytes) => sum + bytes, 0))
console.log(
  `${RUNS} runs, ${ANSWER.length} sentences (${ms(answerMs)} of audio), first byte ${FIRST_BYTE_MS} ms, audio paced in real time`
)
console.log(
  '| strategy | gap between sentences p50 | p99 | next sentence ready ahead p50 | silence inside sentences p50 | excess p50 | p99 |'
)
console.log('| --- | --- | --- | --- | --- | --- | --- |')
for (const [name, r] of Object.entries(results)) {
  console.log(
    `| ${name} | ${ms(quantile(r.between, 0.5))} | ${ms(quantile(r.between, 0.99))} | ${ms(quantile(r.leads, 0.5))} | ${ms(quantile(r.inside, 0.5))} | ${ms(quantile(r.excess, 0.5))} | ${ms(quantile(r.excess, 0.99))} |`
  )
}
