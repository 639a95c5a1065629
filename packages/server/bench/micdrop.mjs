// Micdrop's own server as a bench candidate: `MicdropServer` from a checkout of Micdrop's public
// source, built outside this project (its path is given on the command line, nothing of it is
// kept here). By default it runs with this checkout's `MockAgent`, `MockSTT` and `MockTTS`, the
// very doubles MicdropServer runs with (openmic's agent, STT and TTS follow Micdrop's contracts):
// what differs is the server alone. With `ownDoubles`, it runs with doubles written against
// Micdrop's `Agent`, `STT` and `TTS` base classes that do what those do in the bench (the cost of
// a call on Micdrop's whole stack, openmic's agent machinery and streams left out):
// - STT: reads all the audio of an utterance, emits its transcript once the audio ended;
// - agent: streams the scripted answer word by word (a microtask apart, as the mock's generator),
//   then records it as the assistant's message;
// - TTS: a PCM16 tone of 10 ms per character, copied from a one-second table, each word once it is
//   whole, in chunks of at most 100 ms.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'

const SAMPLE_RATE = 16000
const MS_PER_CHAR = 10
const CHUNK_BYTES = (SAMPLE_RATE * 2) / 10

/** Whether `dir` is a checkout of Micdrop (its server package is `@micdrop/server`). */
export function isMicdropCheckout(dir) {
  const manifest = join(resolve(dir), 'packages/server/package.json')
  return (
    existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === '@micdrop/server'
  )
}

/**
 * Loads the built server of a Micdrop checkout; returns a function that starts a call on a socket
 * with the doubles `doubles()` makes, or (`ownDoubles`) with doubles on Micdrop's base classes.
 */
export function loadMicdrop(dir, { answer, utterance, doubles, ownDoubles }) {
  const require = createRequire(join(resolve(dir), 'packages/server/package.json'))
  const { Agent, MicdropServer, STT, TTS } = require('./dist/index.js')
  if (!ownDoubles) return (socket) => new MicdropServer(socket, doubles())
  const words = answer.match(/\s*\S+\s*/g)

  class BenchAgent extends Agent {
    constructor() {
      super({ systemPrompt: 'You are a mock agent.' })
    }
    async generateAnswer(stream) {
      for (const word of words) {
        await null
        stream.write(word)
      }
      this.addAssistantMessage(answer)
    }
    cancel() {}
  }

  class BenchSTT extends STT {
    audioBytes = 0
    transcribe(audio) {
      audio.on('data', (chunk) => {
        this.audioBytes += chunk.length
      })
      audio.once('end', () => this.emit('Transcript', utterance))
    }
  }

  const table = Buffer.alloc(SAMPLE_RATE * 2)
  for (let i = 0; i < SAMPLE_RATE; i++) {
    table.writeInt16LE(
      Math.round(0.3 * 32767 * Math.sin((i * 2 * Math.PI * 440) / SAMPLE_RATE)),
      i * 2
    )
  }

  class BenchTTS extends TTS {
    phase = 0
    detach = undefined
    speak(text) {
      this.cancel()
      let received = ''
      let spoken = 0
      const say = (end) => {
        if (end > spoken) this.tone((end - spoken) * MS_PER_CHAR)
        spoken = Math.max(spoken, end)
      }
      const onData = (chunk) => {
        received += chunk.toString()
        const lastSpace = received.search(/\s\S*$/)
        if (lastSpace !== -1) say(lastSpace + 1)
      }
      const onEnd = () => say(received.length)
      text.on('data', onData)
      text.once('end', onEnd)
      this.detach = () => {
        text.off('data', onData)
        text.off('end', onEnd)
      }
    }
    cancel() {
      this.detach?.()
      this.detach = undefined
    }
    tone(ms) {
      const samples = Math.round((ms * SAMPLE_RATE) / 1000)
      const audio = Buffer.allocUnsafe(samples * 2)
      for (let written = 0; written < samples;) {
        const count = Math.min(samples - written, SAMPLE_RATE - this.phase)
        table.copy(audio, written * 2, this.phase * 2, (this.phase + count) * 2)
        written += count
        this.phase = (this.phase + count) % SAMPLE_RATE
      }
      for (let offset = 0; offset < audio.length; offset += CHUNK_BYTES) {
        this.emit('Audio', audio.subarray(offset, offset + CHUNK_BYTES))
      }
    }
  }

  return (socket) =>
    new MicdropServer(socket, { agent: new BenchAgent(), stt: new BenchSTT(), tts: new BenchTTS() })
}
