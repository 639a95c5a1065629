import { PassThrough, Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalTTS } from '../dist/index.js'
import { speak } from './helpers.js'

const LONG = 'This is the first sentence. ' + 'Here is a much longer second sentence. '.repeat(6)

describe('LocalTTS', () => {
  let tts: LocalTTS

  beforeAll(async () => {
    tts = new LocalTTS()
    await tts.ready()
  })
  afterAll(() => tts.destroy())

  it('emits the first audio after the first sentence, before the text ends', async () => {
    const text = new PassThrough()
    const firstAudio = new Promise<Buffer>((resolve) => tts.once('Audio', resolve))
    const ended = new Promise<void>((resolve) => tts.once('AudioEnd', resolve))
    tts.speak(text)
    text.write('Hello there. How ')
    expect((await firstAudio).length).toBeGreaterThan(0)
    text.end('are you?')
    await ended
  })

  it('gives the same audio for the same text, every time', async () => {
    const first = await speak(tts, 'What time is it?')
    expect((await speak(tts, 'What time is it?')).equals(first)).toBe(true)
  })

  it('a speak() while speaking replaces the current text: only the new one is heard', async () => {
    const reference = await speak(tts, 'Two and three.')
    let ends = 0
    const onEnd = () => ends++
    tts.on('AudioEnd', onEnd)
    tts.speak(Readable.from([LONG]))
    const audio = await speak(tts, 'Two and three.')
    await new Promise((resolve) => setTimeout(resolve, 200))
    tts.off('AudioEnd', onEnd)
    expect(audio.equals(reference)).toBe(true)
    expect(ends).toBe(1)
  })

  it('cancel() stops at once: no audio of the cancelled text afterwards', async () => {
    const reference = await speak(tts, 'Okay.')
    let afterCancel = 0
    let cancelled = false
    const onAudio = (chunk: Buffer) => {
      if (cancelled) afterCancel += chunk.length
    }
    tts.on('Audio', onAudio)
    const firstAudio = new Promise((resolve) => tts.once('Audio', resolve))
    let ended = false
    tts.once('AudioEnd', () => (ended = true))
    tts.speak(Readable.from([LONG]))
    await firstAudio
    tts.cancel()
    cancelled = true
    expect(ended).toBe(false)
    // The next text's audio is exactly its own: nothing of the cancelled one slipped in.
    await speak(tts, 'Okay.')
    tts.off('Audio', onAudio)
    expect(afterCancel).toBe(reference.length)
  })

  it('cancel() from an Audio listener stops the rest of that sentence', async () => {
    let chunks = 0
    let cancelled!: () => void
    const firstChunk = new Promise<void>((resolve) => (cancelled = resolve))
    const onAudio = () => {
      chunks++
      tts.cancel()
      cancelled()
    }
    tts.on('Audio', onAudio)
    // About 4 s of speech: 16 chunks of 250 ms, emitted in one go unless cancel() stops them.
    tts.speak(Readable.from(['A sentence long enough to need several chunks of audio, surely.']))
    await firstChunk
    await new Promise((resolve) => setTimeout(resolve, 50))
    tts.off('Audio', onAudio)
    expect(chunks).toBe(1)
  })

  it('reports a failing text stream, speaks what came before and ends', async () => {
    const events: unknown[] = []
    const onAudio = () => events.at(-1) !== 'Audio' && events.push('Audio')
    const onFailed = (error: unknown) => events.push((error as Error).message)
    const ended = new Promise<void>((resolve) => tts.once('AudioEnd', resolve))
    tts.on('Audio', onAudio).on('Failed', onFailed)
    const text = new PassThrough()
    tts.speak(text)
    text.write('Spoken first. ')
    text.destroy(new Error('agent failed'))
    await ended
    tts.off('Audio', onAudio).off('Failed', onFailed)
    expect(events).toEqual(['agent failed', 'Audio'])
  })

  it('speaks what it read from a text stream destroyed without an error, then ends', async () => {
    const text = new PassThrough()
    const audio = speak(tts, text)
    text.write('Cut short. And this too')
    setTimeout(() => text.destroy(), 20)
    expect((await audio).equals(await speak(tts, 'Cut short. And this too'))).toBe(true)
  })
})
