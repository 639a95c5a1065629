import { PassThrough, Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { MockTTS } from './MockTTS.js'

function speakAll(tts: MockTTS, text: Readable) {
  const chunks: Buffer[] = []
  const events: string[] = []
  tts.on('Audio', (audio) => {
    chunks.push(audio)
    events.push('audio')
  })
  tts.on('AudioEnd', () => events.push('end'))
  tts.on('Failed', () => events.push('failed'))
  tts.speak(text)
  return { chunks, events }
}

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms))

function peak(audio: Buffer): number {
  let max = 0
  for (let i = 0; i < audio.length; i += 2) max = Math.max(max, Math.abs(audio.readInt16LE(i)))
  return max
}

describe('MockTTS', () => {
  it('speaks a tone whose length follows the text, in chunks, then AudioEnd', async () => {
    const tts = new MockTTS({ msPerChar: 10, chunkMs: 100 })
    const { chunks, events } = speakAll(tts, Readable.from(['Hello ', 'world, how are you?']))
    await tick(10)
    const audio = Buffer.concat(chunks)
    expect(audio.length).toBe(25 * 10 * 32)
    expect(chunks.every((chunk) => chunk.length <= 3200)).toBe(true)
    expect(peak(audio)).toBeGreaterThan(9000)
    expect(events.at(-1)).toBe('end')
    expect(events.filter((e) => e === 'end')).toHaveLength(1)
  })

  it('emits no audio of a cancelled text, and no AudioEnd', async () => {
    const tts = new MockTTS({ chunkMs: 10, chunkDelayMs: 10 })
    const text = new PassThrough()
    const { events } = speakAll(tts, text)
    text.end('A long sentence to speak slowly.')
    await tick(25)
    tts.cancel()
    const count = events.length
    await tick(60)
    expect(count).toBeGreaterThan(0)
    expect(events).toHaveLength(count)
    expect(events).not.toContain('end')
  })

  it('waits firstAudioDelayMs and can fail', async () => {
    const slow = new MockTTS({ firstAudioDelayMs: 40 })
    const { events } = speakAll(slow, Readable.from(['Hi']))
    await tick(15)
    expect(events).toEqual([])
    await tick(50)
    expect(events).toEqual(['audio', 'end'])

    const failing = new MockTTS({ error: new Error('down') })
    const failed = speakAll(failing, Readable.from(['Hi']))
    await tick(5)
    expect(failed.events).toEqual(['failed'])

    const midway = new MockTTS({ chunkMs: 10, failAfterChunks: 2 })
    const mid = speakAll(midway, Readable.from(['A longer text']))
    await tick(5)
    expect(mid.events).toEqual(['audio', 'audio', 'failed'])
  })

  it('emits Words timings from the start of the speak() audio, words split across chunks joined', async () => {
    const tts = new MockTTS({ msPerChar: 10 })
    const words: Array<{ word: string; startMs: number; endMs: number }> = []
    tts.on('Words', (batch) => words.push(...batch))
    const { chunks, events } = speakAll(tts, Readable.from(['Hel', 'lo big ', 'world']))
    await tick(10)
    expect(words).toEqual([
      { word: 'Hello', startMs: 0, endMs: 50 },
      { word: 'big', startMs: 60, endMs: 90 },
      { word: 'world', startMs: 100, endMs: 150 },
    ])
    // The timings match the audio: 15 characters of 10 ms each.
    expect(Buffer.concat(chunks).length / 32).toBe(150)
    expect(events.at(-1)).toBe('end')
  })
})
