import { Readable } from 'node:stream'
import type { TTS } from '@openmic/core'
import { createFakeOpenaiSpeech, type FakeOpenaiSpeech } from '@openmic/testing'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { OpenaiTTS, type OpenaiTTSOptions } from '../src/index.js'

/** A fake OpenAI speech server shared by a test file, reset before each test. */
export function useFakeSpeech(): { readonly fake: FakeOpenaiSpeech } {
  const holder = {} as { fake: FakeOpenaiSpeech }
  beforeAll(async () => {
    holder.fake = await createFakeOpenaiSpeech()
  })
  beforeEach(() => {
    holder.fake.reset()
    holder.fake.defaultReply = { type: 'audio' }
  })
  afterAll(() => holder.fake.close())
  return holder
}

/** An OpenaiTTS talking to the fake server. */
export function makeTTS(fake: FakeOpenaiSpeech, options: OpenaiTTSOptions = {}): OpenaiTTS {
  return new OpenaiTTS({ apiKey: 'sk-test', baseURL: fake.baseURL, ...options })
}

/** What a TTS emitted, in order, and a promise of how its `speak()` ended. */
export function listen(tts: TTS) {
  const chunks: Buffer[] = []
  const events: string[] = []
  let failure: any
  let settle!: (how: 'AudioEnd' | 'Failed') => void
  const ended = new Promise<'AudioEnd' | 'Failed'>((resolve) => (settle = resolve))
  tts.on('Audio', (audio) => {
    chunks.push(audio)
    if (events.at(-1) !== 'Audio') events.push('Audio')
  })
  tts.on('AudioEnd', () => {
    events.push('AudioEnd')
    settle('AudioEnd')
  })
  tts.on('Failed', (error) => {
    failure = error
    events.push('Failed')
    settle('Failed')
  })
  return {
    events,
    ended,
    /** Everything emitted, as one PCM16 buffer. */
    audio: () => Buffer.concat(chunks),
    get failure() {
      return failure
    },
  }
}

/** Speaks `text` given in pieces, as an agent streams its answer. */
export function speak(tts: TTS, ...pieces: string[]): void {
  tts.speak(Readable.from(pieces))
}

/** PCM16 samples of a buffer. */
export function samples(pcm: Buffer): Int16Array {
  return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length))
}

/** PCM16 24 kHz audio holding one value, `ms` long. */
export function constantPcm24k(value: number, ms: number): Buffer {
  const audio = Buffer.alloc(Math.round(ms * 24) * 2)
  for (let i = 0; i < audio.length; i += 2) audio.writeInt16LE(value, i)
  return audio
}
