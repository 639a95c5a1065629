// CartesiaTTS speaking a three-sentence answer, streamed word by word 10 ms apart, against the fake
// Cartesia TTS on loopback, with a scripted time to first audio of 200 ms and audio streamed at
// about 3x real time. A client playing the audio in real time from its first chunk hears silence
// whenever a chunk arrives after the audio before it has finished playing; this prints, over the
// rounds, the longest such silence of each answer and the time to first audio minus the scripted
// 200 ms, beside a bare `ws` client sending the same first request on a warm socket.
// Run after `pnpm build`: `pnpm --filter @openmic/cartesia bench:tts` (ROUNDS=... to change).
import { benchTtsGaps, createFakeCartesiaTTS, streamPieces } from '@openmic/testing'
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import WebSocket from 'ws'
import { CartesiaTTS } from '../dist/index.js'

const ROUNDS = Number(process.env.ROUNDS ?? 30)
const TTFB_MS = 200
const WORDS = 'The weather is sunny today. It will be warm this afternoon. Enjoy your day!'.match(
  /\S+\s*/g
)

const fake = await createFakeCartesiaTTS({
  firstAudioDelayMs: TTFB_MS,
  msPerWord: 300,
  chunkMs: 40,
  chunkDelayMs: 13,
})
const tts = new CartesiaTTS({ apiKey: 'bench', voiceId: 'v', baseURL: fake.baseURL })

const raw = new WebSocket(`${fake.baseURL.replace('http', 'ws')}/tts/websocket`, {
  headers: { Authorization: 'Bearer bench', 'Cartesia-Version': '2026-08-14' },
})
await new Promise((resolve) => raw.once('open', resolve))

/**
 * A bare client's time to the first chunk of one context, minus the TTFB: its first word, then the
 * rest of the text, as CartesiaTTS sends them (the fake's work per request is then the same).
 */
function rawFirstAudio() {
  return new Promise((resolve) => {
    const contextId = randomUUID()
    const start = performance.now()
    let first = 0
    const onMessage = (data) => {
      const event = JSON.parse(String(data))
      if (event.context_id !== contextId) return
      if (event.type === 'chunk' && first === 0) first = performance.now() - start - TTFB_MS
      if (event.type === 'done') {
        raw.off('message', onMessage)
        resolve(first)
      }
    }
    raw.on('message', onMessage)
    const [firstWord, ...rest] = WORDS
    for (const [transcript, more] of [
      [firstWord, true],
      [rest.join(''), false],
    ])
      raw.send(
        JSON.stringify({
          model_id: 'sonic-3',
          voice: { mode: 'id', id: 'v' },
          output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
          transcript,
          context_id: contextId,
          continue: more,
        })
      )
  })
}

const bench = {
  name: 'CartesiaTTS',
  rawName: 'bare `ws` client',
  rounds: ROUNDS,
  ttfbMs: TTFB_MS,
  answer: 'three sentences streamed word by word 10 ms apart',
  tts,
  text: () => streamPieces(WORDS, 10),
  raw: rawFirstAudio,
}
console.log(await benchTtsGaps(bench))
tts.destroy()
raw.close()
await fake.close()
