import type { Agent, STT, TTS } from '@openmic/core'
import type { ConversationStore } from '@openmic/server'

/** Injection token of the {@link CallOptions}. */
export const CALL_OPTIONS = 'OPENMIC_CALL_OPTIONS'

/** What the gateway needs to run calls; given to `CallModule.forRoot`. */
export interface CallOptions {
  /** The token each call must send in its params (replace with your own auth). */
  token: string
  /** Builds the agent, STT and TTS of one call. */
  createCall: () => { agent: Agent; stt: STT; tts: TTS; firstMessage?: string }
  /** Where conversations are kept (default: in memory); `RedisConversationStore` for several instances. */
  store?: ConversationStore
  /** On shutdown: how long answers in progress may take before their calls close with 1012. */
  drainDeadlineMs?: number
}
