import { PassThrough, Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { MockTTS } from '../mocks/MockTTS.js'
import { FallbackTTS } from './FallbackTTS.js'

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms))

function listen(tts: FallbackTTS) {
  const events: string[] = []
  tts.on('Audio', () => events.push('audio'))
  tts.on('AudioEnd', () => events.push('end'))
  tts.on('Failed', () => events.push('failed'))
  return events
}

describe('FallbackTTS', () => {
  it('replays the whole text to the next TTS when the first fails before any audio', async () => {
    const backup = new MockTTS()
    const tts = new FallbackTTS({
      factories: [() => new MockTTS({ error: new Error('down') }), () => backup],
    })
    const events = listen(tts)
    tts.speak(Readable.from(['Hello ', 'there.']))
    await tick(10)
    expect(backup.spokenText).toBe('Hello there.')
    expect(events.at(-1)).toBe('end')
    expect(events).not.toContain('failed')
  })

  it('replays only the text received after the last audio when failing mid-way', async () => {
    const backup = new MockTTS()
    const tts = new FallbackTTS({
      factories: [() => new MockTTS({ failAfterChunks: 1, chunkMs: 100 }), () => backup],
    })
    const events = listen(tts)
    const text = new PassThrough()
    tts.speak(text)
    text.write('Spoken. ')
    await tick()
    text.write('Not yet.')
    text.end()
    await tick(10)
    // The first TTS emitted audio for "Spoken. " then failed before speaking "Not yet."
    expect(backup.spokenText).toBe('Not yet.')
    expect(events.filter((e) => e === 'end')).toHaveLength(1)
  })

  it('switches when no audio comes within firstAudioTimeoutMs', async () => {
    const backup = new MockTTS()
    const tts = new FallbackTTS({
      factories: [() => new MockTTS({ firstAudioDelayMs: 1000 }), () => backup],
      firstAudioTimeoutMs: 20,
    })
    const events = listen(tts)
    tts.speak(Readable.from(['Hi']))
    await tick(50)
    expect(backup.spokenText).toBe('Hi')
    expect(events).toEqual(['audio', 'end'])
  })

  it('emits Failed when the last TTS fails, and nothing after cancel()', async () => {
    const tts = new FallbackTTS({
      factories: [
        () => new MockTTS({ error: new Error('a') }),
        () => new MockTTS({ error: new Error('b') }),
      ],
    })
    const events = listen(tts)
    tts.speak(Readable.from(['Hi']))
    await tick(5)
    expect(events).toEqual(['failed'])

    const slow = new FallbackTTS({
      factories: [() => new MockTTS({ chunkMs: 10, chunkDelayMs: 10 })],
    })
    const slowEvents = listen(slow)
    slow.speak(Readable.from(['A long enough text']))
    await tick(25)
    slow.cancel()
    const count = slowEvents.length
    await tick(40)
    expect(slowEvents).toHaveLength(count)
    expect(slowEvents).not.toContain('end')
  })

  it('forwards Words, shifted by the audio the failed TTS had already emitted', async () => {
    const tts = new FallbackTTS({
      factories: [
        () => new MockTTS({ failAfterChunks: 1, chunkMs: 100, msPerChar: 10 }),
        () => new MockTTS({ msPerChar: 10 }),
      ],
    })
    const words: string[] = []
    tts.on('Words', (batch) => words.push(...batch.map((w) => `${w.word}@${w.startMs}`)))
    const text = new PassThrough()
    tts.speak(text)
    text.write('Spoken now. ')
    await tick()
    text.end('Later.')
    await tick(10)
    // The first TTS said "Spoken now. " (120 ms of audio, one 100 ms chunk emitted) then failed;
    // the second one's words start after the 100 ms already heard.
    expect(words).toEqual(['Spoken@0', 'now.@70', 'Later.@100'])
  })

  it('cancels the last TTS when giving it up: a stalled request does not go on', async () => {
    const slow = new MockTTS({ firstAudioDelayMs: 150 })
    const tts = new FallbackTTS({ factories: [() => slow], firstAudioTimeoutMs: 30 })
    const events = listen(tts)
    let synthesized = 0
    slow.on('Audio', () => synthesized++)
    tts.speak(Readable.from(['Hello there.']))
    await tick(250)
    expect(events).toEqual(['failed'])
    expect(synthesized).toBe(0)
    tts.destroy()
  })

  it('fails, without switching, when the text stream itself breaks', async () => {
    const first = new MockTTS({ chunkDelayMs: 5 })
    const backup = new MockTTS()
    const tts = new FallbackTTS({ factories: [() => first, () => backup] })
    const events = listen(tts)
    const text = new PassThrough()
    tts.speak(text)
    text.write('Hello ')
    await tick(2)
    text.destroy(new Error('agent stream broke'))
    await tick(20)
    expect(events).toContain('failed')
    expect(events).not.toContain('end')
    expect(tts.current).toBe(first)
    expect(backup.calls).toBe(0)
  })

  it('tells each switch (Fallback) and names the TTS in use', async () => {
    const down = new Error('down')
    const tts = new FallbackTTS({
      factories: [() => new MockTTS({ error: down }), () => new MockTTS()],
    })
    const switches: unknown[] = []
    tts.on('Fallback', (fallback) => switches.push(fallback))
    tts.speak(Readable.from(['Hello.']))
    await tick(10)
    expect(switches).toEqual([{ from: 'mock', to: 'mock', error: down }])
  })
})
