import { PassThrough, Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { ProviderError } from '../retry/ProviderError.js'
import { SentenceTTS } from './SentenceTTS.js'

interface Script {
  /** Delay before each chunk of a sentence's audio, in ms. */
  chunkDelayMs?: number
  /** Audio chunks per sentence. */
  chunks?: number
  /** Sentences whose request fails, or never sends anything. */
  fail?: string
  stall?: string
}

/** A TTS whose "audio" for a sentence is its text as bytes, so the tests can read what was said. */
class ScriptedTTS extends SentenceTTS {
  readonly started: Array<{ sentence: string; signal: AbortSignal }> = []
  /** `start <sentence>` when its request starts, `sent <sentence>` once it gave all its audio. */
  readonly trace: string[] = []
  constructor(
    private readonly script: Script = {},
    options: ConstructorParameters<typeof SentenceTTS>[0] = {}
  ) {
    super(options)
  }

  protected async *synthesize(sentence: string, signal: AbortSignal) {
    this.started.push({ sentence, signal })
    this.trace.push(`start ${sentence}`)
    if (sentence === this.script.stall) await new Promise(() => {})
    if (sentence === this.script.fail) throw new Error(`Scripted TTS: HTTP 500 for "${sentence}"`)
    const bytes = Buffer.from(sentence.length % 2 === 0 ? `${sentence}  ` : `${sentence} `)
    const count = this.script.chunks ?? 2
    const size = Math.ceil(bytes.length / count)
    for (let offset = 0; offset < bytes.length; offset += size) {
      await sleep(this.script.chunkDelayMs ?? 5)
      if (signal.aborted) throw signal.reason
      yield bytes.subarray(offset, offset + size)
    }
    this.trace.push(`sent ${sentence}`)
  }
}

function listen(tts: SentenceTTS) {
  const heard: Buffer[] = []
  const events: string[] = []
  tts.on('Audio', (audio) => {
    heard.push(audio)
    events.push('audio')
  })
  tts.on('AudioEnd', () => events.push('end'))
  tts.on('Failed', (error) => events.push(`failed: ${(error as Error).message}`))
  return { events, said: () => Buffer.concat(heard).toString().replace(/ +/g, ' ').trim() }
}

describe('SentenceTTS', () => {
  it('speaks sentence by sentence, in order, then AudioEnd once', async () => {
    const tts = new ScriptedTTS({ chunkDelayMs: 5 })
    const { events, said } = listen(tts)
    tts.speak(Readable.from(['Hello there. How', ' are you? Fine']))
    await sleep(150)
    expect(said()).toBe('Hello there. How are you? Fine')
    expect(tts.started.map((s) => s.sentence)).toEqual(['Hello there.', 'How are you?', 'Fine'])
    expect(events.filter((e) => e === 'end')).toEqual(['end'])
    expect(events.at(-1)).toBe('end')
  })

  it("starts the next sentence's request while the previous one still streams, keeping order", async () => {
    const tts = new ScriptedTTS({ chunkDelayMs: 20, chunks: 4 })
    const { said } = listen(tts)
    const ended = new Promise<void>((resolve) => tts.once('AudioEnd', resolve))
    tts.speak(Readable.from(['One sentence here. Two sentences here. Three.']))
    await ended
    // Told by the order of events, not by the clock:
    const at = (entry: string) => tts.trace.indexOf(entry)
    const trace = tts.trace.join(', ')
    // the second request started before the first one's audio (4 × 20 ms) was all sent...
    expect(at('start Two sentences here.'), trace).toBeGreaterThan(at('start One sentence here.'))
    expect(at('start Two sentences here.'), trace).toBeLessThan(at('sent One sentence here.'))
    // ...and the third only once the first was heard (lookahead 1).
    expect(at('start Three.'), trace).toBeGreaterThan(at('sent One sentence here.'))
    expect(said()).toBe('One sentence here. Two sentences here. Three.')
  })

  it('emits whole PCM16 samples whatever byte lengths the provider sends', async () => {
    const tts = new ScriptedTTS({ chunks: 5 })
    const lengths: number[] = []
    tts.on('Audio', (audio) => lengths.push(audio.length))
    tts.speak(Readable.from(['Abcdefghijkl.'])) // 14 bytes in chunks of 3
    await sleep(100)
    expect(lengths.every((length) => length % 2 === 0)).toBe(true)
    expect(lengths.reduce((a, b) => a + b, 0)).toBe(14)
  })

  it('cancel() aborts every request in flight and emits nothing of the cancelled text', async () => {
    const tts = new ScriptedTTS({ chunkDelayMs: 30, chunks: 3 })
    const { events } = listen(tts)
    tts.speak(Readable.from(['First one. Second one. Third one.']))
    await sleep(40)
    tts.cancel()
    const count = events.length
    expect(tts.started.every((s) => s.signal.aborted)).toBe(true)
    await sleep(150)
    expect(events.length).toBe(count)
    expect(events).not.toContain('end')

    tts.speak(Readable.from(['Again.']))
    await sleep(150)
    expect(events.at(-1)).toBe('end')
  })

  it('a new speak() replaces the current one', async () => {
    const tts = new ScriptedTTS({ chunkDelayMs: 20 })
    const { said, events } = listen(tts)
    const first = new PassThrough()
    tts.speak(first)
    first.write('Old text here. ')
    await sleep(5)
    tts.speak(Readable.from(['New.']))
    first.end('More old text.')
    await sleep(150)
    expect(said()).toBe('New.')
    expect(events.filter((e) => e === 'end')).toHaveLength(1)
  })

  it('a failed request emits Failed with its error once the sentences before it were heard', async () => {
    const tts = new ScriptedTTS({ fail: 'Broken.' })
    const { events, said } = listen(tts)
    tts.speak(Readable.from(['Fine. Broken. Never said.']))
    await sleep(150)
    expect(events.filter((e) => e.startsWith('failed'))).toEqual([
      'failed: Scripted TTS: HTTP 500 for "Broken."',
    ])
    expect(events).not.toContain('end')
    expect(said()).toBe('Fine.')
    expect(tts.started.map((s) => s.sentence)).not.toContain('Never said.')
  })

  it('gives up on a provider that stalls, with Failed', async () => {
    const tts = new ScriptedTTS({ stall: 'Stuck.' }, { stallTimeoutMs: 50 })
    const { events } = listen(tts)
    tts.speak(Readable.from(['Stuck.']))
    await sleep(120)
    expect(events).toEqual(['failed: ScriptedTTS: no audio for 50 ms ("Stuck.")'])
    expect(tts.started[0]!.signal.aborted).toBe(true)
  })

  it('fails with a ProviderError naming the class when the text stream breaks', async () => {
    const tts = new ScriptedTTS()
    const failures: unknown[] = []
    tts.on('Failed', (error) => failures.push(error))
    const text = new PassThrough()
    tts.speak(text)
    text.destroy(new Error('model gone'))
    await sleep(10)
    expect(failures).toHaveLength(1)
    expect(failures[0]).toBeInstanceOf(ProviderError)
    expect(failures[0]).toMatchObject({
      provider: 'ScriptedTTS',
      message: 'ScriptedTTS: the text stream failed: model gone',
    })
  })

  it('ends at once, with AudioEnd and no request, for text with nothing to say', async () => {
    const tts = new ScriptedTTS()
    const { events } = listen(tts)
    tts.speak(Readable.from(['  ... ']))
    await sleep(10)
    expect(events).toEqual(['end'])
    expect(tts.started).toEqual([])
  })
})
