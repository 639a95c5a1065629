import type { PassThrough, Readable } from 'node:stream'
import { Agent } from '../agent/Agent.js'
import type { AgentOptions } from '../agent/types.js'
import type {
  MicdropAnswerMetadata,
  MicdropConversationItem,
  MicdropConversationMessage,
  MicdropConversationToolCall,
  MicdropConversationToolResult,
} from '../conversation/types.js'
import type { ModelAnswerLimits } from '../model/types.js'
import type { TTS } from '../tts/TTS.js'
import type { RealtimeModel } from './RealtimeModel.js'
import type { RealtimeResponse } from './RealtimeResponse.js'
import { RealtimeSession } from './RealtimeSession.js'
import { RealtimeSTT } from './RealtimeSTT.js'
import { RealtimeTTS } from './RealtimeTTS.js'
import { responseParts } from './response-parts.js'

export interface RealtimeAgentOptions extends AgentOptions, ModelAnswerLimits {
  /** The speech-to-speech model (e.g. `new OpenaiRealtime({...})` from `@openmic/openai`). */
  model: RealtimeModel
  /**
   * Ask the model for its answer as soon as the user's audio is committed (default true), while
   * their words are transcribed: the answer's output is kept until the call answers the words
   * (then it goes at once) and dropped if they were noise or the user went on. False asks once
   * the transcript is in: one hop more per turn, no response ever dropped.
   */
  answerEarly?: boolean
  /**
   * Speaks what is not the model's own answer: the call's `firstMessage` and the app's
   * `speak(text)`. Default: the model says those texts itself, word for word, in its voice.
   */
  textTTS?: TTS
  /**
   * Give up a user utterance whose transcript has not come this long after its audio was
   * committed, in ms (default 5000): the STT emits `Failed`.
   */
  transcriptTimeoutMs?: number
  /**
   * Give up a text the model is saying word for word (`firstMessage`, `speak(text)`) when no
   * audio came this long after it was asked, in ms (default 5000): the TTS emits `Failed`.
   */
  firstAudioTimeoutMs?: number
}

/**
 * A speech-to-speech model as a call's agent, STT and TTS: `new MicdropServer(socket, { realtime:
 * agent })`. The server's turn rules (barge-in, heard text, false interruptions, end of call,
 * the store) drive it as they drive any agent, through its three faces, which share one session
 * of the model:
 * - the agent (this object): the conversation, tools (`addTool`), `autoEndCall`, extraction and
 *   `ToolCall` events are core's, as with any agent. An answer is the model's response: its
 *   transcript is the answer's text, its function calls run through core's tools and the model
 *   is asked again with their results.
 * - {@link RealtimeAgent.stt}: the user's audio goes to the session's input, committed at the
 *   end of each utterance, and its transcription is the utterance's `Transcript`.
 * - {@link RealtimeAgent.tts}: plays the audio of the answer the agent gives (the text it is
 *   handed is that answer's transcript); other texts are said by the model word for word, or by
 *   `textTTS`.
 *
 * The conversation stays openmic's: before each commit and response the session's conversation
 * is made to match it (a resumed call's history is created in the session; an answer cut by the
 * user is truncated at the audio they heard; noise and unheard answers are deleted), and a
 * session that was replaced (dropped, or a fallback's switch) is seeded again from it.
 *
 * @example
 * const agent = new RealtimeAgent({
 *   model: new OpenaiRealtime({ apiKey: process.env.OPENAI_API_KEY, voice: 'marin' }),
 *   systemPrompt: 'You are a friendly assistant.',
 *   autoEndCall: true,
 * })
 * agent.addTool(weatherTool)
 * new MicdropServer(socket, { realtime: agent, firstMessage: 'Hello!' })
 */
export class RealtimeAgent extends Agent<RealtimeAgentOptions> {
  readonly model: RealtimeModel
  /** The user's speech to text, through the model's session. */
  readonly stt: RealtimeSTT
  /** The answers' speech, from the model's session. */
  readonly tts: RealtimeTTS
  private readonly session: RealtimeSession
  /** The response whose text the step loop is saving. */
  private saving?: RealtimeResponse

  constructor(options: RealtimeAgentOptions) {
    super(options)
    this.model = options.model
    this.session = new RealtimeSession(this.model, this, {
      answerEarly: options.answerEarly ?? true,
      log: (...message) => this.log(...message),
    })
    this.stt = new RealtimeSTT(this.session, options.transcriptTimeoutMs ?? 5000)
    this.tts = new RealtimeTTS(this.session, options.textTTS, options.firstAudioTimeoutMs ?? 5000)
    this.model.on('Failed', (error) => this.log('Realtime session failed:', error))
    // Opened now: the first turn does not wait for the handshake
    this.session.sync()
  }

  /** The model's provider (`openai`...), for tracing. */
  override get providerName(): string {
    return this.model.providerName
  }

  override answer(): Readable {
    this.session.newTurn()
    return super.answer()
  }

  /** Cancels the answer: its response is cancelled, its audio stops. */
  cancel(): void {
    this.session.turn?.end()
    this.abortAnswer()
  }

  override addMessage(
    role: 'user' | 'assistant' | 'system',
    text: string,
    metadata?: MicdropAnswerMetadata
  ): void {
    const before = this.conversation.length
    super.addMessage(role, text, metadata)
    const added = this.conversation.at(-1)
    if (this.conversation.length === before || added?.role !== role) return
    this.session.messageAdded(added as MicdropConversationMessage, this.saving)
  }

  override addToolMessage(message: MicdropConversationToolCall | MicdropConversationToolResult) {
    super.addToolMessage(message)
    if (message.role === 'tool_call') this.session.toolCalled(message)
  }

  override updateMessage<Item extends MicdropConversationItem>(
    item: Item,
    changes: Partial<Item>
  ): Item | undefined {
    const updated = super.updateMessage(item, changes)
    if (updated) this.session.messageUpdated(item, updated)
    return updated
  }

  override destroy(): void {
    super.destroy()
    this.stt.destroy()
    this.tts.destroy()
    this.session.destroy()
  }

  protected async generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void> {
    const turn = this.session.turn!
    try {
      await this.streamModelAnswer(
        stream,
        signal,
        ({ signal: callSignal, step, attempt }) =>
          responseParts(
            this.session.respond(turn, step, attempt),
            callSignal,
            this.session.provider
          ),
        this.options
      )
    } finally {
      turn.end()
    }
  }

  protected override saveAnswer(text: string, metadata?: MicdropAnswerMetadata): void {
    this.saving = this.session.turn?.responses.at(-1)
    try {
      super.saveAnswer(text, metadata)
    } finally {
      this.saving = undefined
    }
  }
}
