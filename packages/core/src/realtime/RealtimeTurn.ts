import { EventEmitter } from 'eventemitter3'
import { audioMs } from '../protocol/commands.js'
import type { SessionItem } from './ConversationMirror.js'
import type { RealtimeResponse } from './RealtimeResponse.js'

interface RealtimeTurnEvents {
  /** The answer asked for another response (after tool calls, or a retry). */
  Response: [response: RealtimeResponse]
}

/**
 * One answer of a {@link RealtimeAgent}: the responses it asked for, in order, and where each
 * spoken item's audio sits in the answer's audio, which the call's TTS plays from its first
 * chunk on: what a cut at the user's `heardMs` truncates.
 */
export class RealtimeTurn extends EventEmitter<RealtimeTurnEvents> {
  readonly responses: RealtimeResponse[] = []
  /** Its answer is being generated: its responses' items are in use. */
  active = true
  /** The TTS took it: it plays its audio. */
  voiced = false
  private audioMs = 0
  private readonly audio = new Map<string, { startMs: number; ms: number }>()

  /** A response of this answer; its audio follows the audio of the ones before. */
  add(response: RealtimeResponse): void {
    this.responses.push(response)
    response.follow((output) => {
      if (output.type !== 'audio') return
      const ms = audioMs(output.audio.length)
      const known = this.audio.get(output.itemId)
      if (known) known.ms += ms
      else this.audio.set(output.itemId, { startMs: this.audioMs, ms })
      this.audioMs += ms
    })
    this.emit('Response', response)
  }

  /** The answer is over (done, failed or cancelled). */
  end(): void {
    this.active = false
  }

  /** The session items of `response`'s spoken messages, with their audio's place. */
  spokenItems(response: RealtimeResponse): SessionItem[] {
    return response.messageIds.map((id) => {
      const audio = this.audio.get(id)
      return audio ? { id, audio: { ...audio } } : { id }
    })
  }
}
