import { setTimeout as sleep } from 'node:timers/promises'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { OpenaiTTS } from '../src/index.js'
import { constantPcm24k, listen, makeTTS, samples, speak, useFakeSpeech } from './tts-helpers.js'

const server = useFakeSpeech()

/** Samples at 16 kHz of `bytes` of PCM16 at 24 kHz, as the band-limited resampler gives them. */
const samplesAt16k = (bytes: number) => Math.round(((bytes / 2) * 16_000) / 24_000)

describe('OpenaiTTS requests', () => {
  it('sends one request per sentence: model, voice, pcm, the sentence, the key', async () => {
    const { fake } = server
    const tts = makeTTS(fake)
    const heard = listen(tts)
    speak(tts, 'Hello there. How ', 'are you?')
    expect(await heard.ended).toBe('AudioEnd')
    expect(fake.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/v1/audio/speech'],
      ['POST', '/v1/audio/speech'],
    ])
    expect(fake.requests.map((r) => r.body)).toEqual([
      { model: 'gpt-4o-mini-tts', voice: 'alloy', response_format: 'pcm', input: 'Hello there.' },
      { model: 'gpt-4o-mini-tts', voice: 'alloy', response_format: 'pcm', input: 'How are you?' },
    ])
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-test')
  })

  it('sends model, voice, instructions and speed when given', async () => {
    const { fake } = server
    const tts = makeTTS(fake, {
      model: 'tts-1',
      voice: 'coral',
      instructions: 'Speak softly.',
      speed: 1.25,
    })
    const heard = listen(tts)
    speak(tts, 'Hi.')
    expect(await heard.ended).toBe('AudioEnd')
    expect(fake.requests[0]!.body).toEqual({
      model: 'tts-1',
      voice: 'coral',
      response_format: 'pcm',
      instructions: 'Speak softly.',
      speed: 1.25,
      input: 'Hi.',
    })
  })

  it('uses a client given in `openai`, with its retries off', async () => {
    const { fake } = server
    fake.replyError(500).replyError(500).replyError(500)
    const openai = new OpenAI({ apiKey: 'sk-client', baseURL: fake.baseURL, maxRetries: 5 })
    const tts = new OpenaiTTS({ openai })
    const heard = listen(tts)
    speak(tts, 'Hi.')
    expect(await heard.ended).toBe('Failed')
    // One request and OpenaiTTS's single retry: the client's own 5 retries are not used.
    expect(fake.requests).toHaveLength(2)
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-client')
  })
})

describe('OpenaiTTS audio', () => {
  it('emits the 24 kHz audio resampled to 16 kHz, same duration', async () => {
    const { fake } = server
    const tts = makeTTS(fake)
    const heard = listen(tts)
    speak(tts, 'Hello there. ', 'This is a test of the audio length.')
    expect(await heard.ended).toBe('AudioEnd')
    const sent = fake.requests.map((r) => r.audioBytes)
    expect(sent[0]).toBe(fake.toneDurationMs('Hello there.') * 48)
    const expected = sent.reduce((sum, bytes) => sum + samplesAt16k(bytes), 0)
    expect(heard.audio().length).toBe(expected * 2)
    // The tone is there, not silence: about -10 dBFS.
    const pcm = samples(heard.audio())
    const rms = Math.sqrt(pcm.reduce((sum, s) => sum + s * s, 0) / pcm.length) / 32768
    expect(rms).toBeGreaterThan(0.15)
  })

  it('requests the next sentence while the previous one streams, and keeps the order', async () => {
    const { fake } = server
    // The first sentence streams in real time (600 ms), the second comes at once.
    fake.replyAudio({ audio: constantPcm24k(8000, 600), chunkDelayMs: 'realtime' })
    fake.replyAudio({ audio: constantPcm24k(-8000, 300) })
    const tts = makeTTS(fake)
    const heard = listen(tts)
    speak(tts, 'First sentence here. ', 'Second one.')
    expect(await heard.ended).toBe('AudioEnd')
    const [first, second] = fake.requests
    // The second request arrived, and was answered, before the first body ended.
    expect(second!.endedAt).toBeLessThan(first!.endedAt!)
    const pcm = samples(heard.audio())
    expect(pcm.length).toBe(samplesAt16k(600 * 48) + samplesAt16k(300 * 48))
    const boundary = samplesAt16k(600 * 48)
    const margin = 64 // the filter's ringing at the edges of each sentence
    expect(Math.min(...pcm.slice(margin, boundary - margin))).toBeGreaterThan(7000)
    expect(Math.max(...pcm.slice(boundary + margin, pcm.length - margin))).toBeLessThan(-7000)
  })

  it('emits whole samples whatever the chunking of the body', async () => {
    const { fake } = server
    // 7-byte chunks: samples are split between chunks.
    fake.replyAudio({ audio: constantPcm24k(5000, 100), chunkMs: 7 / 48 })
    const tts = makeTTS(fake)
    const heard = listen(tts)
    const lengths: number[] = []
    tts.on('Audio', (audio) => lengths.push(audio.length))
    speak(tts, 'Short.')
    expect(await heard.ended).toBe('AudioEnd')
    expect(lengths.every((length) => length % 2 === 0)).toBe(true)
    expect(heard.audio().length).toBe(samplesAt16k(100 * 48) * 2)
  })
})

describe('OpenaiTTS cancel', () => {
  it('aborts every request in flight and emits nothing more', async () => {
    const { fake } = server
    fake.defaultReply = { type: 'audio', chunkDelayMs: 'realtime' }
    const tts = makeTTS(fake, { lookahead: 2 })
    const heard = listen(tts)
    speak(tts, 'One sentence is here. ', 'Another one follows. ', 'And a third. ', 'Fourth.')
    await fake.waitForRequests(3)
    await new Promise((resolve) => tts.once('Audio', resolve))
    tts.cancel()
    const emitted = heard.audio().length
    const inFlight = fake.requests.slice()
    await Promise.all(inFlight.map((request) => request.finished))
    expect(inFlight.map((request) => request.aborted)).toEqual([true, true, true])
    await sleep(300)
    expect(heard.audio().length).toBe(emitted)
    expect(heard.events).toEqual(['Audio'])
    // The fourth sentence was never requested.
    expect(fake.requests).toHaveLength(3)
  })

  it('speaks again after a cancel', async () => {
    const { fake } = server
    const tts = makeTTS(fake)
    const first = listen(tts)
    speak(tts, 'Cancelled before anything.')
    tts.cancel()
    tts.removeAllListeners()
    const second = listen(tts)
    speak(tts, 'Spoken.')
    expect(await second.ended).toBe('AudioEnd')
    expect(second.audio().length).toBe(samplesAt16k(fake.toneDurationMs('Spoken.') * 48) * 2)
    expect(first.events).toEqual([])
  })
})

describe('OpenaiTTS failures', () => {
  it('fails with the HTTP status on a wrong key, without retrying', async () => {
    const { fake } = server
    fake.replyError(401, {
      error: { message: 'Incorrect API key provided: sk-bad.', type: 'invalid_request_error' },
    })
    const tts = makeTTS(fake, { apiKey: 'sk-bad' })
    const heard = listen(tts)
    speak(tts, 'Hello there.')
    expect(await heard.ended).toBe('Failed')
    expect(heard.failure.message).toBe('OpenaiTTS: HTTP 401 Incorrect API key provided: sk-bad.')
    expect(heard.failure.status).toBe(401)
    expect(heard.events).toEqual(['Failed'])
    await sleep(50)
    expect(fake.requests).toHaveLength(1)
  })

  it('says what the API refused (HTTP 400)', async () => {
    const { fake } = server
    const tts = makeTTS(fake, { speed: 9 })
    const heard = listen(tts)
    speak(tts, 'Too fast.')
    expect(await heard.ended).toBe('Failed')
    expect(heard.failure.message).toMatch(/^OpenaiTTS: HTTP 400 speed must be/)
  })

  it('retries a sentence once after a 5xx, a 429 or a reset before its first byte', async () => {
    const { fake } = server
    for (const reply of [
      { type: 'error', status: 503 },
      { type: 'error', status: 429, retryAfter: 0.05 },
      { type: 'reset' },
    ] as const) {
      fake.reset()
      fake.enqueue(reply)
      const tts = makeTTS(fake)
      const heard = listen(tts)
      speak(tts, 'Hello there.')
      expect(await heard.ended).toBe('AudioEnd')
      expect(fake.requests.map((r) => r.body.input)).toEqual(['Hello there.', 'Hello there.'])
      expect(heard.audio().length).toBe(samplesAt16k(fake.requests[1]!.audioBytes) * 2)
    }
  })

  it('waits what retry-after asks before the retry, but never more than a second', async () => {
    const { fake } = server
    fake.replyError(429, undefined, { retryAfter: 30 })
    const tts = makeTTS(fake)
    const heard = listen(tts)
    const start = performance.now()
    speak(tts, 'Hello there.')
    await fake.waitForRequests(2)
    // The 1 s cap within wide margins, never a ms-tight bound (a timer may fire a fraction of a ms
    // early): half of it is still far above a retry that ignores retry-after (at once), and 1 s
    // over it far below the 30 s asked.
    expect(performance.now() - start).toBeGreaterThanOrEqual(1000 / 2)
    expect(performance.now() - start).toBeLessThan(2000)
    expect(await heard.ended).toBe('AudioEnd')
  })

  it('fails, without retrying, on a 200 answer that is not audio', async () => {
    const { fake } = server
    fake.replyAudio({
      audio: Buffer.from('{"ok":true}'),
      headers: { 'content-type': 'application/json' },
    })
    const tts = makeTTS(fake)
    const heard = listen(tts)
    speak(tts, 'Hello there.')
    expect(await heard.ended).toBe('Failed')
    expect(heard.failure.message).toBe('OpenaiTTS: HTTP 200 without audio (application/json)')
    expect(heard.events).toEqual(['Failed'])
    expect(fake.requests).toHaveLength(1)
  })

  it('fails when the retry fails too', async () => {
    const { fake } = server
    fake.replyError(500).replyError(502)
    const tts = makeTTS(fake)
    const heard = listen(tts)
    speak(tts, 'Hello there.')
    expect(await heard.ended).toBe('Failed')
    expect(heard.failure.message).toMatch(/^OpenaiTTS: HTTP 502 /)
    expect(fake.requests).toHaveLength(2)
  })

  it('never retries once audio was heard: a reset mid-body fails the speak', async () => {
    const { fake } = server
    fake.replyAudio({ resetAfterMs: 200 })
    const tts = makeTTS(fake)
    const heard = listen(tts)
    speak(tts, 'A sentence long enough to be cut in the middle.')
    expect(await heard.ended).toBe('Failed')
    expect(heard.failure.message).toMatch(/^OpenaiTTS: /)
    expect(heard.events).toEqual(['Audio', 'Failed'])
    expect(fake.requests).toHaveLength(1)
  })

  it('gives up a stalled request after stallTimeoutMs, and aborts it', async () => {
    const { fake } = server
    fake.enqueue({ type: 'stall' })
    const tts = makeTTS(fake, { stallTimeoutMs: 300 })
    const heard = listen(tts)
    const start = performance.now()
    speak(tts, 'Hello there.')
    expect(await heard.ended).toBe('Failed')
    // Half the stall timeout, never a ms-tight bound: failing at once still fails it.
    expect(performance.now() - start).toBeGreaterThanOrEqual(300 / 2)
    expect(heard.failure.message).toMatch(/^OpenaiTTS: no audio for 300 ms/)
    await fake.requests[0]!.finished
    expect(fake.requests[0]!.aborted).toBe(true)
  })

  it('gives up a body that stops mid-sentence', async () => {
    const { fake } = server
    fake.replyAudio({ stallAfterMs: 100 })
    const tts = makeTTS(fake, { stallTimeoutMs: 300 })
    const heard = listen(tts)
    speak(tts, 'A sentence that stops halfway through.')
    expect(await heard.ended).toBe('Failed')
    expect(heard.events).toEqual(['Audio', 'Failed'])
    // What came is heard (but for the resampler's filter tail, never flushed on a failure).
    expect(heard.audio().length).toBeGreaterThan(0)
    expect(heard.audio().length).toBeLessThanOrEqual(samplesAt16k(100 * 48) * 2)
    await fake.requests[0]!.finished
    expect(fake.requests[0]!.aborted).toBe(true)
  })
})
