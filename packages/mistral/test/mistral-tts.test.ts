import { Resampler } from '@openmic/core/provider'
import { createFakeMistralSpeech, float32Sine, type FakeMistralSpeech } from '@openmic/testing'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MistralTTS, type MistralTTSOptions } from '../src/index.js'

let fake: FakeMistralSpeech
const made: MistralTTS[] = []
beforeEach(async () => {
  fake = await createFakeMistralSpeech()
})
afterEach(async () => {
  for (const tts of made.splice(0)) tts.destroy()
  await fake.close()
})

function ttsOn(options: MistralTTSOptions = {}) {
  const tts = new MistralTTS({ apiKey: 'test-key', serverURL: fake.serverURL, ...options })
  made.push(tts)
  const audio: Buffer[] = []
  const events: string[] = []
  const failures: Error[] = []
  tts.on('Audio', (chunk) => {
    audio.push(chunk)
    events.push('Audio')
  })
  tts.on('AudioEnd', () => events.push('AudioEnd'))
  tts.on('Failed', (error) => {
    failures.push(error as Error)
    events.push('Failed')
  })
  const settled = async (timeoutMs = 3000) => {
    const start = Date.now()
    while (!events.includes('AudioEnd') && !events.includes('Failed')) {
      if (Date.now() - start > timeoutMs) throw new Error('No AudioEnd nor Failed')
      await sleep(2)
    }
  }
  return { tts, audio: () => Buffer.concat(audio), events, failures, settled }
}

/** What openmic should hear for Mistral's float32 24 kHz bytes: the same, resampled at once. */
function expected(...sentences: Float32Array[]): Buffer {
  return Buffer.concat(
    sentences.map((samples) => {
      const resampler = new Resampler({ fromRate: 24_000, toRate: 16_000, inputFormat: 'float32' })
      const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
      return Buffer.concat([resampler.write(bytes), resampler.end()])
    })
  )
}

describe('MistralTTS: requests', () => {
  it('asks for streamed pcm with the default model and voice, through the SDK', async () => {
    fake.replySpeech(float32Sine(240))
    const { tts, settled } = ttsOn()
    tts.speak(Readable.from(['Hello there.']))
    await settled()
    const request = fake.requests[0]!
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/v1/audio/speech')
    expect(request.headers.authorization).toBe('Bearer test-key')
    expect(request.headers.accept).toBe('text/event-stream')
    expect(request.body).toEqual({
      model: 'voxtral-mini-tts-latest',
      input: 'Hello there.',
      voice_id: 'en_paul_neutral',
      response_format: 'pcm',
      stream: true,
    })
  })

  it('sends its model and reference audio instead of a voice', async () => {
    fake.replySpeech(float32Sine(240))
    const { tts, settled } = ttsOn({ model: 'voxtral-mini-tts-2603', refAudio: 'UklGRg==' })
    tts.speak(Readable.from(['Cloned voice.']))
    await settled()
    expect(fake.requests[0]!.body).toEqual({
      model: 'voxtral-mini-tts-2603',
      input: 'Cloned voice.',
      ref_audio: 'UklGRg==',
      response_format: 'pcm',
      stream: true,
    })
  })
})

describe('MistralTTS: audio', () => {
  it('turns float32 24 kHz deltas cut mid-sample into the PCM16 16 kHz of the same speech', async () => {
    const speech = float32Sine(2400, 300)
    fake.replyAudioBytes(Buffer.from(speech.buffer), { chunks: 7 })
    const { tts, audio, events, settled } = ttsOn()
    tts.speak(Readable.from(['Hello.']))
    await settled()
    expect(events.at(-1)).toBe('AudioEnd')
    expect(events.filter((e) => e === 'AudioEnd')).toHaveLength(1)
    expect(audio().length).toBe(1600 * 2)
    expect(audio()).toEqual(expected(speech))
  })

  it("starts the next sentence's request while the previous one streams, and keeps their order", async () => {
    const first = float32Sine(4800, 200)
    const second = float32Sine(2400, 500, 0.25)
    fake
      .replySpeech(first, { chunks: 5, chunkDelayMs: 40 })
      .replySpeech(second, { chunks: 2, firstEventDelayMs: 10 })
    const { tts, audio, settled } = ttsOn()
    tts.speak(Readable.from(['First sentence here. ', 'Second one.']))
    await fake.waitForRequests(2)
    // The second request was sent before the first one's audio was over.
    let firstDone = false
    void fake.requests[0]!.finished.then(() => (firstDone = true))
    await sleep(1)
    expect(firstDone).toBe(false)
    await settled()
    expect(fake.requests.map((r) => r.body.input)).toEqual(['First sentence here.', 'Second one.'])
    expect(audio()).toEqual(expected(first, second))
  })
})

describe('MistralTTS: failures and cancel', () => {
  it('fails with the status on an HTTP error, with one request (no SDK retries)', async () => {
    fake.replyError(401, { message: 'Unauthorized', request_id: 'r1' })
    const { tts, failures, events, settled } = ttsOn()
    tts.speak(Readable.from(['Hello.']))
    await settled()
    expect(events).toEqual(['Failed'])
    expect(failures[0]!.message).toBe('MistralTTS: HTTP 401 Unauthorized')
    expect((failures[0] as unknown as { status: number }).status).toBe(401)
    expect(fake.requests).toHaveLength(1)
  })

  it('does not retry a 503 either', async () => {
    fake.replyError(503).replySpeech(float32Sine(240))
    const { tts, failures, settled } = ttsOn()
    tts.speak(Readable.from(['Hello.']))
    await settled()
    expect(failures[0]!.message).toMatch(/^MistralTTS: HTTP 503 /)
    await sleep(50)
    expect(fake.requests).toHaveLength(1)
  })

  it('gives up on a stream that stalls after stallTimeoutMs', async () => {
    fake.replySpeech(float32Sine(2400), { chunks: 4, stallAfter: 1 })
    const { tts, failures, settled } = ttsOn({ stallTimeoutMs: 100 })
    tts.speak(Readable.from(['Hello.']))
    await settled()
    expect(failures[0]!.message).toMatch(/^MistralTTS: no audio for 100 ms/)
    await fake.requests[0]!.finished
    expect(fake.requests[0]!.aborted).toBe(true)
  })

  it('fails, naming MistralTTS, when the connection is reset mid-stream or before any response', async () => {
    fake.replySpeech(float32Sine(2400), { chunks: 4, resetAfter: 2 }).replyReset()
    const { tts, failures, events, settled } = ttsOn()
    tts.speak(Readable.from(['Hello.']))
    await settled()
    expect(failures[0]!.message).toMatch(/^MistralTTS: the speech stream broke/)
    events.length = 0
    tts.speak(Readable.from(['Again.']))
    await settled()
    expect(failures[1]!.message).toMatch(/^MistralTTS: request failed/)
  })

  it('fails on a malformed event instead of crashing', async () => {
    fake.replyParts([{ type: 'raw', text: 'event: speech.audio.delta\ndata: {"audio_da\n\n' }])
    const { tts, failures, settled } = ttsOn()
    tts.speak(Readable.from(['Hello.']))
    await settled()
    expect(failures[0]!.message).toMatch(/^MistralTTS: the speech stream broke/)
  })

  it('cancel() aborts the requests in flight and emits nothing of the cancelled text', async () => {
    fake
      .replySpeech(float32Sine(4800), { chunks: 8, chunkDelayMs: 30 })
      .replySpeech(float32Sine(4800), { chunks: 8, chunkDelayMs: 30 })
    const { tts, events } = ttsOn()
    tts.speak(Readable.from(['One sentence. ', 'Another sentence.']))
    await fake.waitForRequests(2)
    await sleep(40)
    tts.cancel()
    const heard = events.length
    await Promise.all(fake.requests.map((r) => r.finished))
    expect(fake.requests.every((r) => r.aborted)).toBe(true)
    await sleep(60)
    expect(events.length).toBe(heard)
    expect(events).not.toContain('AudioEnd')
  })
})
