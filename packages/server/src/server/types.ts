import type { Agent, Logger, RealtimeAgent, STT, TTS, VAD } from '@openmic/core'
import type {
  MicdropCallSummary,
  MicdropConversationItem,
  MicdropTurnMetrics,
} from '@openmic/core/protocol'
import type { AnswerOutcome } from '../call/types.js'
import type { TurnTimes } from '../metrics/turn-metrics.js'
import type { TurnReport } from '../metrics/turn-report.js'
import type { ConversationStore, StoreCallReport, StoreOperation } from '../store/types.js'

export interface MicdropServerOptions {
  /** The LLM side: holds the conversation and answers. Required, unless `realtime` is given. */
  agent?: Agent
  /** Speech-to-text, called once per user utterance. Required, unless `realtime` is given. */
  stt?: STT
  /** Text-to-speech for the answers. Required, unless `realtime` is given. */
  tts?: TTS
  /**
   * A speech-to-speech model in place of `agent`, `stt` and `tts` (not beside them): a
   * `RealtimeAgent` of `@openmic/core` (e.g. over `OpenaiRealtime` of `@openmic/openai`). It is
   * the call's agent, and its `stt` and `tts` hear and speak through the model's one session,
   * under the same turn rules (barge-in and heard text, false interruptions, preemptive answers,
   * end of call, the store). The client and the wire protocol are the same.
   */
  realtime?: RealtimeAgent
  /**
   * Said first, as an answer: the conversation keeps it as far as it was heard (cut like any
   * answer when the user talks over it).
   */
  firstMessage?: string
  /** The agent answers the conversation (the system prompt alone) to open the call. */
  generateFirstMessage?: boolean
  /** Called once the call has ended, with the same summary as the `End` event. */
  onEnd?: (summary: MicdropCallSummary) => void
  /** Attach one to log what the server does. */
  logger?: Logger
  /**
   * Frames larger than this close the call with 1009 (default 65 536 bytes: 2 s of audio; the
   * client sends 3 200-byte chunks). Set `maxPayload` on your `WebSocketServer` too, so that
   * `ws` refuses a huge frame before buffering it.
   */
  maxFrameBytes?: number
  /** After `StopSpeaking`, how long to wait for a transcript before `SkipAnswer` (default 10 000 ms). */
  transcriptTimeoutMs?: number
  /**
   * False interruptions (default true): the server tells an openmic client (its `Hello`) that it
   * may pause the answer at `StartSpeaking` (`Played` with `paused`) instead of dropping it; the
   * server then holds the rest of it. If the utterance is noise (no words, or the agent's
   * `ignore_user_noise`) it sends `Resume` and the rest of the answer; otherwise `Interrupt`, and
   * the answer is cut as usual. Every pause gets exactly one of them. Micdrop clients never pause:
   * their answers are cut at once.
   */
  resumeAfterNoise?: boolean
  /**
   * After the utterance that paused an answer ended, how long to wait for it to be found noise
   * before interrupting the answer (default 3 000 ms).
   */
  resumeTimeoutMs?: number
  /**
   * With an STT that cannot tell when an utterance's transcript is complete (its
   * `signalsTranscriptEnd` is false): the user message is added and the answer starts at its first
   * `Transcript`, and the answer's output (audio, items, `SkipAnswer`) waits this long after the
   * last piece (default 300 ms). A piece within it joins the user message (`CancelLastUserMessage`
   * then the joined `Message`) and restarts the answer: one turn, one message, one answer. The
   * wait overlaps the model's latency. STTs that signal `TranscriptEnd` (every openmic STT) are
   * answered as soon as it comes, without this wait.
   */
  transcriptGraceMs?: number
  /**
   * Preemptive answers (default false: they cost model calls). Where the user's pause is known
   * before the end of their turn (an openmic client's `PauseSpeaking`, a server VAD's
   * `SpeechPause`), the words so far are transcribed and answered at once (agent and TTS), and
   * all of the answer (audio, frames, items) is held until the end of the turn is confirmed
   * (`StopSpeaking`, `SpeechEnd`), then released at once; if the user goes on, it is dropped
   * (agent and TTS cancelled, nothing of it seen or stored) and the whole turn is answered at its
   * end. Saves up to the pause-to-end silence on each turn; each pause the user goes on after
   * costs one model call and the TTS of its answer.
   */
  preemptive?: boolean
  /**
   * Server-side VAD, for clients that stream their microphone without a VAD of their own
   * (devices, native apps): one instance per call (e.g. `new SileroVAD()` from
   * `@openmic/silero`, or core's `EnergyVAD`). All binary frames go to it, and the turns are
   * the ones it hears (the audio from a little before the speech began goes to the STT). A
   * protocol extension (docs/protocol.md, "Server-side VAD"): the client's `StartSpeaking`,
   * `StopSpeaking` and `Played` are ignored (logged once); a barge-in the server hears is
   * settled with `Interrupt`, at which the client drops the assistant audio it has (it cannot
   * be asked to pause: the answer is cut); what was heard is the server's reckoning of the
   * client's playback. `Mute` ends the utterance the VAD opened, with no answer, as usual.
   */
  vad?: VAD
  /** Also send each turn's metrics to the client, as `Metrics <json>` (default false). */
  sendMetrics?: boolean
  /**
   * Where the conversation is kept (with `conversationId`; default: one `MemoryConversationStore`
   * shared by the process's calls). Before the first turn the call loads
   * its history into the agent: a new conversation opens as usual (`firstMessage`...); a resumed
   * one answers its last user message if it was never answered, else resumes silently
   * (`SkipAnswer`). Every final item (and `CancelLastUserMessage`) is stored before its frame is
   * sent; a Micdrop client is shown an answer's text as it starts playing, before it is final.
   */
  store?: ConversationStore
  /** The conversation's id in `store`, typically from the call's params. */
  conversationId?: string
  /**
   * How long frames wait for the store before going out anyway (default 1 000 ms; the history's
   * load may take twice that). A slow or failing store is reported (`StoreError`), never stops
   * the call: its writes are retried, in order, until it catches up.
   */
  storeTimeoutMs?: number
}

/** How a barge-in was settled (see the `BargeIn` event). */
export type BargeInVerdict = 'interrupted' | 'resumed'

export interface MicdropServerEvents {
  /**
   * The call ended (socket closed): the conversation and the duration in seconds; `code`: the
   * close code, when known (1000: a normal end, 1012: drained for a restart...).
   */
  End: [summary: MicdropCallSummary, code?: number]
  /** User audio of an open utterance (PCM16 16 kHz mono). */
  UserAudio: [audio: Buffer]
  /** Assistant audio sent to the client (PCM16 16 kHz mono). */
  AssistantAudio: [audio: Buffer]
  /**
   * A conversation item is final (`user`, `assistant`, `tool_call`, ...): what the store keeps,
   * once per item, in the conversation's order. An answer's assistant item is final once it was
   * heard to its end or cut to what was heard.
   */
  Message: [item: MicdropConversationItem]
  /**
   * The last user message of a `Message` event was taken back (the agent found it to be noise, or
   * the user's next words joined it and come as a new `Message`): the store keeps this too.
   */
  CancelLastUserMessage: []
  /**
   * Latencies of a user turn, once its answer's audio is complete; `times`: the instants they are
   * measured from (performance.now()), to place the turn on a timeline.
   */
  Metrics: [metrics: MicdropTurnMetrics, times: TurnTimes]
  /**
   * The user spoke (or muted) while an answer was being produced or played, and it was settled:
   * `interrupted` (the answer was cut: a real interruption) or `resumed` (the utterance was noise
   * and the paused answer went on: a false one). Once per such barge-in, when its `Interrupt` or
   * `Resume` goes out (at once for a client that cannot pause). `heardMs`: how much of the answer
   * playing the user had heard when they spoke (ms of audio; 0 if none of it had played); `at`:
   * when they spoke (`StartSpeaking` or `Mute`, performance.now()).
   */
  BargeIn: [verdict: BargeInVerdict, heardMs: number, at: number]
  /**
   * A user turn is over (its answer heard or cut, or it got none): its instants, latencies,
   * playback and failure, for tracing. Once per answer to a user turn (an answer thrown away for
   * a longer one is not reported), and once per turn that got no answer.
   */
  Turn: [report: TurnReport]
  /** An answer (or a `speak()`) ended. */
  AnswerEnd: [outcome: AnswerOutcome]
  /** The store failed (or was slow): reported once per outage; the call goes on. */
  StoreError: [error: unknown, operation: StoreOperation]
  /** A call to the store ended (each try of a write, failed or not), for tracing. */
  StoreCall: [call: StoreCallReport]
}
