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

  it('drops an utterance replaced by a new transcribe() before it ended', async () => {
    const transcripts: string[] = []
    const onTranscript = (text: string) => transcripts.push(text)
    stt.on('Transcript', onTranscript)
    const abandoned = new PassThrough()
    stt.transcribe(abandoned)
    abandoned.write(story.subarray(0, story.length / 2))
    const text = await transcribe(stt, question)
    abandoned.end(story.subarray(story.length / 2))
    await new Promise((resolve) => setTimeout(resolve, 200))
    stt.off('Transcript', onTranscript)
    expect(text).toBe('what time is it')
    expect(transcripts).toEqual(['what time is it'])
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
    const transcripts: string[] = []
    const onTranscript = (text: string) => transcripts.push(text)
    stt.on('Transcript', onTranscript)
    const silence = new PassThrough()
    stt.transcribe(silence)
    silence.end(Buffer.alloc(32000))
    // Utterances are decoded in order: the next transcript comes after the silence's would have.
    const text = await transcribe(stt, question)
    stt.off('Transcript', onTranscript)
    expect(text).toBe('what time is it')
    expect(transcripts).toEqual(['what time is it'])
  })
})
