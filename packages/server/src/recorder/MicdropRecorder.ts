import { EventEmitter } from 'eventemitter3'
import {
  audioBytes,
  type MicdropConversationItem,
  type MicdropConversationMessage,
} from '@openmic/core/protocol'
import type { AnswerOutcome } from '../call/types.js'
import type { MicdropServer } from '../server/MicdropServer.js'
import type { MicdropAudioMessage, MicdropRecorderEvents } from './types.js'

/**
 * Records a call: pairs each user message with the audio of its utterance and each assistant
 * message with the audio sent for it, and emits `AudioMessage` for each, then `Complete` when the
 * call ends. Audio is PCM16 16 kHz mono (wrap it in a WAV header to play it).
 *
 * @example
 * const recorder = new MicdropRecorder(server)
 * recorder.on('Complete', ({ messages }) => save(messages))
 */
export class MicdropRecorder extends EventEmitter<MicdropRecorderEvents> {
  readonly messages: MicdropAudioMessage[] = []
  private userAudio: Buffer[] = []
  private assistantAudio: Buffer[] = []
  private pendingAnswer?: MicdropConversationMessage
  /** The audio of the last answer that ended before its message came (it is held until heard). */
  private endedAnswerAudio?: Buffer[]

  constructor(server: MicdropServer) {
    super()
    server.on('UserAudio', (audio) => this.userAudio.push(audio))
    server.on('AssistantAudio', (audio) => {
      // A new answer plays: the last one ended without a message (nothing of it was heard).
      this.endedAnswerAudio = undefined
      this.assistantAudio.push(audio)
    })
    server.on('Message', (item) => this.onMessage(item))
    server.on('AnswerEnd', (outcome) => this.onAnswerEnd(outcome))
    server.on('End', ({ conversation, duration }) => {
      this.flushAnswer()
      this.emit('Complete', { messages: this.messages, conversation, duration })
      this.removeAllListeners()
    })
  }

  private onMessage(item: MicdropConversationItem) {
    if (item.role === 'user') {
      this.add(item, this.userAudio)
      this.userAudio = []
    } else if (item.role === 'assistant') {
      this.flushAnswer()
      if (this.endedAnswerAudio) {
        this.add(item, this.endedAnswerAudio)
        this.endedAnswerAudio = undefined
      } else {
        this.pendingAnswer = item
      }
    }
  }

  private onAnswerEnd(_outcome: AnswerOutcome) {
    if (this.pendingAnswer) this.flushAnswer()
    else this.endedAnswerAudio = this.assistantAudio
    this.assistantAudio = []
  }

  /** The assistant message being spoken gets the audio sent since its answer started. */
  private flushAnswer() {
    if (!this.pendingAnswer) return
    this.add(this.pendingAnswer, this.assistantAudio)
    this.pendingAnswer = undefined
    this.assistantAudio = []
  }

  private add(item: MicdropConversationMessage, audio: Buffer[]) {
    let recorded = Buffer.concat(audio)
    // An answer cut by a barge-in keeps the audio that was played, like its text
    const heardMs = item.metadata?.interrupted ? item.metadata.heardMs : undefined
    if (typeof heardMs === 'number') recorded = recorded.subarray(0, audioBytes(heardMs))
    const message: MicdropAudioMessage = {
      role: item.role as 'user' | 'assistant',
      content: item.content,
      item,
      audio: recorded,
    }
    this.messages.push(message)
    this.emit('AudioMessage', message)
  }
}
