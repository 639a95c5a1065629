// Classes that each break one rule of the STT/TTS contract, run through the conformance suites.
// conformance-catches-bugs.test.ts checks that the suites fail them, and fail only the right tests.
import {
  MockSTT,
  MockTTS,
  type MockTTSOptions,
  type MockUtterance,
  type TTSWord,
} from '@openmic/core'
import type { Readable } from 'node:stream'
import { describeSTTConformance, describeTTSConformance } from '../../src/conformance/index.js'
import { mockUtterance } from '../mock-speech.js'

const fast = { timeoutMs: 800, quietMs: 150, releaseTimeoutMs: 300 }

function sttSuite(name: string, build: (script: MockUtterance[]) => MockSTT, hangs = false) {
  describeSTTConformance(name, {
    ...fast,
    make: () => {
      const script: MockUtterance[] = []
      return {
        stt: build(script),
        next: (utterance) =>
          void script.push(
            hangs && utterance.kind === 'failure' ? { transcripts: [] } : mockUtterance(utterance)
          ),
      }
    },
  })
}

function ttsSuite(name: string, build: (options: MockTTSOptions) => MockTTS) {
  describeTTSConformance(name, {
    ...fast,
    words: true,
    make: () => {
      const options: MockTTSOptions = { chunkMs: 40, chunkDelayMs: 5 }
      return {
        tts: build(options),
        next: (speak) => {
          options.error = speak.kind === 'failure' ? new Error('Scripted failure') : undefined
        },
      }
    },
  })
}

const scripted = (script: MockUtterance[]) => ({ utterances: (i: number) => script[i] ?? '' })

sttSuite('TwiceSTT', (script) =>
  distort(new MockSTT(scripted(script)), (event, args) =>
    event === 'Transcript' ? [args, args] : [args]
  )
)

sttSuite('DoubleEndSTT', (script) =>
  distort(new MockSTT(scripted(script)), (event, args) =>
    event === 'TranscriptEnd' ? [args, args] : [args]
  )
)

sttSuite('HangingSTT', (script) => new MockSTT(scripted(script)), true)

sttSuite(
  'LeakySTT',
  (script) =>
    new (class extends MockSTT {
      override destroy(): void {
        super.destroy()
        setTimeout(() => this.emit('Transcript', 'too late'), 50)
        setTimeout(() => {}, 2000)
      }
    })(scripted(script))
)

sttSuite(
  'TimerLeakSTT',
  (script) =>
    new (class extends MockSTT {
      override destroy(): void {
        super.destroy()
        setInterval(() => {}, 1000) // a keep-alive ping nobody stops
      }
    })(scripted(script))
)

sttSuite(
  'RejectingSTT',
  (script) =>
    new (class extends MockSTT {
      override transcribe(audio: Readable): void {
        super.transcribe(audio)
        void Promise.reject(new Error('nobody catches this'))
      }
    })(scripted(script))
)

/**
 * A MockSTT behind a connection the provider can close. `reopens`: the next utterance opens it
 * again (sound); else it is never answered (broken).
 */
function connectionSuite(name: string, reopens: boolean) {
  describeSTTConformance(name, {
    ...fast,
    reconnects: true,
    make: () => {
      const script: MockUtterance[] = []
      let open = true
      const stt = new (class extends MockSTT {
        override transcribe(audio: Readable): void {
          if (!open && reopens) open = true
          if (open) super.transcribe(audio)
          else audio.resume()
        }
      })(scripted(script))
      return {
        stt,
        next: (utterance) => void script.push(mockUtterance(utterance)),
        closeConnection: () => void (open = false),
      }
    },
  })
}

connectionSuite('ReconnectingSTT', true)
connectionSuite('StaysClosedSTT', false)

ttsSuite('OddTTS', (options) =>
  distort(new MockTTS(options), (event, args) =>
    event === 'Audio' ? [[(args[0] as Buffer).subarray(1)]] : [args]
  )
)

ttsSuite('SilentTTS', (options) =>
  distort(new MockTTS(options), (event, args) =>
    event === 'Audio' ? [[Buffer.alloc((args[0] as Buffer).length)]] : [args]
  )
)

ttsSuite(
  'QueueingTTS',
  (options) =>
    new (class extends MockTTS {
      private busy = false
      override speak(text: Readable): void {
        if (!this.busy) {
          this.busy = true
          this.once('AudioEnd', () => (this.busy = false))
          return super.speak(text)
        }
        this.once('AudioEnd', () => this.speak(text))
      }
    })(options)
)

ttsSuite(
  'DeafTTS',
  (options) =>
    new (class extends MockTTS {
      override cancel(): void {}
    })(options)
)

ttsSuite('LateWordsTTS', (options) =>
  distort(new MockTTS(options), (event, args) =>
    event === 'Words'
      ? [[(args[0] as TTSWord[]).map((word) => ({ ...word, startMs: word.startMs + 5000 }))]]
      : [args]
  )
)

/** Rewrites what an emitter emits: `rewrite` gives the argument lists to emit instead. */
function distort<E extends object>(
  emitter: E,
  rewrite: (event: string, args: unknown[]) => unknown[][]
): E {
  const target = emitter as unknown as { emit(event: string, ...args: unknown[]): boolean }
  const emit = target.emit.bind(emitter)
  target.emit = (event, ...args) => {
    for (const rewritten of rewrite(event, args)) emit(event, ...rewritten)
    return true
  }
  return emitter
}
