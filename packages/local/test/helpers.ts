import { Readable } from 'node:stream'
import { afterAll, beforeAll } from 'vitest'
import { LocalSTT, LocalTTS } from '../dist/index.js'

/** A LocalSTT and a LocalTTS for a test file: loaded before its tests, destroyed after. */
export function useSpeech(): { stt: LocalSTT; tts: LocalTTS } {
  const speech = {} as { stt: LocalSTT; tts: LocalTTS }
  beforeAll(async () => {
    speech.stt = new LocalSTT()
    speech.tts = new LocalTTS()
    await Promise.all([speech.stt.ready(), speech.tts.ready()])
  })
  afterAll(() => {
    speech.stt.destroy()
    speech.tts.destroy()
  })
  return speech
}

/** Sentences spoken by flite for the word error rate (short, conversational). */
export const SENTENCES = [
  'what time is it',
  'goodbye',
  'hello how are you today',
  'the weather is nice today',
  'please tell me a story about a dog',
  'i would like to book a table for two',
  'can you help me with my account',
  'thank you very much',
  'my name is john',
  'i want to speak to a person',
  'how much does it cost',
  'call me back tomorrow morning',
  'where is the nearest train station',
  'turn off the lights in the kitchen',
  'yes that is correct',
  'no i do not think so',
  'what is your name',
  'i need a new password',
  'play some music please',
  'see you later',
]

/** Speaks `text` and resolves with all of its audio once `AudioEnd` comes. */
export function speak(tts: LocalTTS, text: string | Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const onAudio = (chunk: Buffer) => chunks.push(chunk)
    const done = (error?: unknown) => {
      tts.off('Audio', onAudio).off('AudioEnd', done).off('Failed', done)
      if (error) reject(error)
      else resolve(Buffer.concat(chunks))
    }
    tts.on('Audio', onAudio).on('AudioEnd', done).on('Failed', done)
    tts.speak(typeof text === 'string' ? Readable.from([text]) : text)
  })
}

/** Streams `audio` (PCM16 16 kHz) to the STT in chunks and resolves with the transcript. */
export function transcribe(stt: LocalSTT, audio: Buffer, chunkBytes = 3200): Promise<string> {
  return new Promise((resolve, reject) => {
    const done = (error: unknown, text = '') => {
      stt.off('Transcript', onTranscript).off('Failed', done)
      if (error) reject(error)
      else resolve(text)
    }
    const onTranscript = (text: string) => done(undefined, text)
    stt.on('Transcript', onTranscript).on('Failed', done)
    const stream = new Readable({ read() {} })
    stt.transcribe(stream)
    for (let start = 0; start < audio.length; start += chunkBytes) {
      stream.push(audio.subarray(start, start + chunkBytes))
    }
    stream.push(null)
  })
}

/** Word-level edit distance between a reference and a hypothesis. */
export function wordErrors(reference: string, hypothesis: string): number {
  const ref = reference.split(/\s+/).filter(Boolean)
  const hyp = hypothesis.split(/\s+/).filter(Boolean)
  let previous = hyp.map((_, j) => j + 1)
  previous.unshift(0)
  for (let i = 1; i <= ref.length; i++) {
    const row = [i]
    for (let j = 1; j <= hyp.length; j++) {
      const substitution = previous[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1)
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, substitution))
    }
    previous = row
  }
  return previous[hyp.length]!
}

/** Duration of PCM16 16 kHz mono audio, in seconds. */
export function seconds(audio: Buffer): number {
  return audio.length / 32000
}

/**
 * Whether `promise` has already settled, decided within the current microtasks: a worker's
 * message cannot arrive in between, so `false` means the promise still waits for a worker.
 */
export async function settledAtOnce(promise: Promise<unknown>): Promise<boolean> {
  let later: Promise<unknown> = Promise.resolve()
  for (let hop = 0; hop < 5; hop++) later = later.then()
  return Promise.race([
    promise.then(
      () => true,
      () => true
    ),
    later.then(() => false),
  ])
}
