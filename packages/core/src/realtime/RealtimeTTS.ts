import type { Readable } from 'node:stream'
import { ProviderError } from '../retry/ProviderError.js'
import { followText } from '../speech/follow-stream.js'
import { TTS } from '../tts/TTS.js'
import type { RealtimeResponse } from './RealtimeResponse.js'
import type { RealtimeSession } from './RealtimeSession.js'
import type { RealtimeTurn } from './RealtimeTurn.js'

/** The `speak()` in progress: what stops it. */
interface Speaking {
  stops: Array<() => void>
  timer?: NodeJS.Timeout
}

/**
 * A {@link RealtimeAgent}'s text-to-speech. A `speak()` that comes with the agent's answer (the
 * server calls it right after `answer()`) plays the audio of that answer's responses, in order,
 * from the first chunk the model made (also those made before `speak()`, while the call waited
 * for the user's transcript); the text it is handed is that answer's transcript, read only for
 * its end. Any other text (a first message, the app's `speak(text)`) is said by the model word
 * for word, out of the conversation, or by the `textTTS` given to the agent. The model gives no
 * word timings: no `Words` are emitted, the server spreads the heard text over the audio.
 */
export class RealtimeTTS extends TTS {
  private speaking?: Speaking

  /** @internal Built by {@link RealtimeAgent}. */
  constructor(
    private readonly session: RealtimeSession,
    private readonly textTTS: TTS | undefined,
    private readonly firstAudioTimeoutMs: number
  ) {
    super()
    textTTS?.on('Audio', (audio) => this.emit('Audio', audio))
    textTTS?.on('Words', (words) => this.emit('Words', words))
    textTTS?.on('AudioEnd', () => this.emit('AudioEnd'))
    textTTS?.on('Failed', (error) => this.emit('Failed', error))
  }

  /** The model's provider, for tracing. */
  override get providerName(): string {
    return this.session.model.providerName
  }

  speak(text: Readable): void {
    this.cancel()
    const turn = this.session.takeTurn()
    if (turn) return this.voice(turn, text)
    if (this.textTTS) return this.textTTS.speak(text)
    this.sayText(text)
  }

  cancel(): void {
    this.stop()
    this.textTTS?.cancel()
  }

  override destroy(): void {
    super.destroy()
    this.textTTS?.destroy()
  }

  /** Plays the audio of the agent's answer, until its text (its transcript) ends. */
  private voice(turn: RealtimeTurn, text: Readable) {
    const speaking = this.start()
    const play = (response: RealtimeResponse) => {
      speaking.stops.push(
        response.follow((output) => {
          if (output.type === 'audio' && this.speaking === speaking)
            this.emit('Audio', output.audio)
        })
      )
    }
    for (const response of turn.responses) play(response)
    turn.on('Response', play)
    speaking.stops.push(() => turn.off('Response', play))
    // The answer's text ends once its last response did: all its audio was played by then
    speaking.stops.push(
      followText(text, {
        data: () => {},
        end: () => this.finish(speaking),
        error: (error) => this.fail(speaking, error),
      })
    )
  }

  /** Has the model say a text word for word, once the whole text is in. */
  private sayText(text: Readable) {
    const speaking = this.start()
    let said = ''
    speaking.stops.push(
      followText(text, {
        data: (piece) => (said += piece),
        end: () => {
          if (said.trim() === '') return this.finish(speaking)
          this.say(speaking, said)
        },
        error: (error) => this.fail(speaking, error),
      })
    )
  }

  private say(speaking: Speaking, text: string) {
    const response = this.session.model.say(text)
    const timeoutMs = this.firstAudioTimeoutMs
    speaking.timer = setTimeout(() => {
      response.cancel()
      const error = new ProviderError(this.session.provider, `no audio within ${timeoutMs} ms`)
      this.fail(speaking, error)
    }, timeoutMs)
    speaking.stops.push(() => response.cancel())
    speaking.stops.push(
      response.follow(
        (output) => {
          if (output.type !== 'audio' || this.speaking !== speaking) return
          clearTimeout(speaking.timer)
          this.emit('Audio', output.audio)
        },
        (end) => {
          if (end.status === 'completed' || end.status === 'incomplete') this.finish(speaking)
          else {
            const why =
              end.error ?? new ProviderError(this.session.provider, `speech ${end.status}`)
            this.fail(speaking, why)
          }
        }
      )
    )
  }

  private start(): Speaking {
    const speaking: Speaking = { stops: [] }
    this.speaking = speaking
    return speaking
  }

  private finish(speaking: Speaking) {
    if (this.speaking !== speaking) return
    this.stop()
    this.emit('AudioEnd')
  }

  private fail(speaking: Speaking, error: unknown) {
    if (this.speaking !== speaking) return
    this.stop()
    this.log('Failed:', error)
    this.emit('Failed', error)
  }

  /** Stops the `speak()` in progress: a text still being said is cancelled. */
  private stop() {
    const speaking = this.speaking
    if (!speaking) return
    this.speaking = undefined
    clearTimeout(speaking.timer)
    for (const stop of speaking.stops) stop()
  }
}
