import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalSTT, LocalTTS } from '../dist/index.js'
import { seconds, speak, transcribe } from './helpers.js'

describe('LocalSTT', () => {
  let stt: LocalSTT
  let question: Buffer
  let story: Buffer

  beforeAll(async () => {
    stt = new LocalSTT()
    const tts = new LocalTTS()
    question = await speak(tts, 'What time is it?')
    story = await speak(tts, 'The weather is nice today. Call me back tomorrow morning.')
    tts.destroy()
    await stt.ready()
  })
  afterAll(() => stt.destroy())

  it('keeps the event loop responsive while decoding', async () => {
    const lags: number[] = []
    let last = performance.now()
    const timer = setInterval(() => {
      const now = performance.now()
      lags.push(now - last - 5)
      last = now
    }, 5)
    const started = performance.now()
    const text = await transcribe(stt, story)
    const decodeMs = performance.now() - started
    clearInterval(timer)
    const maxLag = Math.max(...lags)
    console.log(
      `Decoded ${seconds(story).toFixed(1)} s of audio in ${decodeMs.toFixed(0)} ms; ` +
        `worst timer lag ${maxLag.toFixed(1)} ms over ${lags.length} ticks`
    )
    expect(text).toContain('tomorrow morning')
    // Decoding on the event loop would stall the timer for the whole decode (hundreds of ms); the
    // bound is relative so that a loaded machine (the timer thread descheduled) does not fail it.
    expect(decodeMs).toBeGreaterThan(200)
    expect(maxLag).toBeLessThan(decodeMs / 4)
  })

  it('reuses its decoder across utterances', async () => {
    expect(await transcribe(stt, question)).toBe('what time is it')
    expect(await transcribe(stt, question)).toBe('what time is it')
  })

  /**
   * Transcribes the question between `before` and `after`, which stream an utterance that must give
   * no transcript; returns every transcript heard meanwhile (utterances are decoded in order).
   */
  async function heardAround(before: () => void, after?: () => Promise<void>) {
    const transcripts: string[] = []
    const onTranscript = (text: string) => transcripts.push(text)
    stt.on('Transcript', onTranscript)
    try {
      before()
      expect(await transcribe(stt, question)).toBe('what time is it')
      await after?.()
    } finally {
      stt.off('Transcript', onTranscript)
    }
    return transcripts
  }

  it('drops an utterance replaced by a new transcribe() before it ended', async () => {
    const abandoned = new PassThrough()
    const heard = await heardAround(
      () => {
        stt.transcribe(abandoned)
        abandoned.write(story.subarray(0, story.length / 2))
      },
      async () => {
        abandoned.end(story.subarray(story.length / 2))
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    )
    expect(heard).toEqual(['what time is it'])
  })

  it('reports a failing audio stream as Failed, then transcribes the next utterance', async () => {
    const failed = new Promise((resolve) => stt.once('Failed', resolve))
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.write(question.subarray(0, 8000))
    audio.destroy(new Error('socket closed'))
    expect(await failed).toMatchObject({ message: 'socket closed' })
    expect(await transcribe(stt, question)).toBe('what time is it')
  })

  it('emits no Transcript for silence', async () => {
    const silence = new PassThrough()
    const heard = await heardAround(() => {
      stt.transcribe(silence)
      silence.end(Buffer.alloc(32000))
    })
    expect(heard).toEqual(['what time is it'])
  })

  it('drops an utterance whose audio stream is destroyed without ending', async () => {
    const audio = new PassThrough()
    const heard = await heardAround(() => {
      stt.transcribe(audio)
      audio.write(question)
      audio.destroy()
    })
    expect(heard).toEqual(['what time is it'])
  })

  it('gives its loaded decoder to the next LocalSTT when destroyed', async () => {
    const first = new LocalSTT({ args: { beam: '1e-48' } })
    await first.ready()
    first.destroy()
    const second = new LocalSTT({ args: { beam: '1e-48' } })
    const third = new LocalSTT({ args: { beam: '1e-48' } })
    const soon = () => new Promise((resolve) => setImmediate(() => resolve('loading')))
    try {
      // Already loaded: ready before the next turn of the event loop. A new worker cannot be.
      expect(await Promise.race([second.ready().then(() => 'ready'), soon()])).toBe('ready')
      expect(await Promise.race([third.ready().then(() => 'ready'), soon()])).toBe('loading')
      expect(await transcribe(second, question)).toBe('what time is it')
    } finally {
      second.destroy()
      third.destroy()
    }
  })
})
