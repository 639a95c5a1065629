// Test helpers: a realtime agent's three faces driven as the server drives them.
import { PassThrough, Readable } from 'node:stream'
import { audioBytes } from '../src/protocol/commands.js'
import type { RealtimeAgent } from '../src/realtime/RealtimeAgent.js'

/** Resolves after `ms` milliseconds. */
export const tick = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** User audio of `ms` milliseconds (PCM16 16 kHz, not silent), in 100 ms chunks. */
export function userAudio(ms = 300): Readable {
  const audio = Buffer.alloc(audioBytes(ms))
  for (let i = 0; i < audio.length / 2; i++)
    audio.writeInt16LE(Math.round(6000 * Math.sin(i / 7)), i * 2)
  const chunks: Buffer[] = []
  for (let at = 0; at < audio.length; at += 3200) chunks.push(audio.subarray(at, at + 3200))
  return Readable.from(chunks)
}

/** One utterance to the STT; resolves with its transcript (or rejects with its failure). */
export function utter(agent: RealtimeAgent, ms = 300): Promise<string> {
  return new Promise((resolve, reject) => {
    const done = () => {
      agent.stt.off('Transcript', onTranscript)
      agent.stt.off('Failed', onFailed)
    }
    const onTranscript = (text: string) => {
      done()
      resolve(text)
    }
    const onFailed = (error: unknown) => {
      done()
      reject(error)
    }
    agent.stt.on('Transcript', onTranscript)
    agent.stt.on('Failed', onFailed)
    agent.stt.transcribe(userAudio(ms))
  })
}

/** What an answer gave: its text, its audio, and how the TTS ended. */
export interface Voiced {
  text: string
  audio: Buffer[]
  end: 'AudioEnd' | 'Failed'
}

/**
 * Answers as the server does (`answer()`, then `speak()` of its text at once) and resolves once
 * the TTS is done, or after `cut(voice)` cancels it (then with the audio so far).
 */
export function answer(agent: RealtimeAgent, cut?: (voiced: Voiced) => boolean): Promise<Voiced> {
  return speakWith(agent, agent.answer(), cut)
}

/** The server's `speak(text)`: the TTS is handed a text that is no answer of the agent. */
export function speak(agent: RealtimeAgent, text: string): Promise<Voiced> {
  return speakWith(agent, Readable.from([text]))
}

function speakWith(
  agent: RealtimeAgent,
  text: Readable,
  cut?: (voiced: Voiced) => boolean
): Promise<Voiced> {
  const voiced: Voiced = { text: '', audio: [], end: 'AudioEnd' }
  const input = new PassThrough()
  return new Promise((resolve) => {
    const finish = (end: Voiced['end']) => {
      agent.tts.off('Audio', onAudio)
      agent.tts.off('AudioEnd', onEnd)
      agent.tts.off('Failed', onFailed)
      voiced.end = end
      resolve(voiced)
    }
    const onAudio = (audio: Buffer) => {
      voiced.audio.push(audio)
      if (cut?.(voiced)) {
        agent.tts.cancel()
        agent.cancel()
        finish('AudioEnd')
      }
    }
    const onEnd = () => finish('AudioEnd')
    const onFailed = () => finish('Failed')
    agent.tts.on('Audio', onAudio)
    agent.tts.on('AudioEnd', onEnd)
    agent.tts.on('Failed', onFailed)
    text.on('data', (chunk: Buffer | string) => {
      voiced.text += chunk.toString()
      input.write(chunk)
    })
    text.on('end', () => input.end())
    agent.tts.speak(input)
  })
}

/** Milliseconds of PCM16 16 kHz audio in chunks. */
export function msOf(audio: Buffer[]): number {
  return audio.reduce((sum, chunk) => sum + chunk.length, 0) / 32
}
