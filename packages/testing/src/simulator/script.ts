/**
 * How the STT transcribes one utterance. Times count from the end of the utterance's audio (the
 * server's `StopSpeaking` ends the STT's stream).
 */
export interface ScriptedTranscript {
  /**
   * The transcript's pieces, in order, each `afterMs` after the end of the audio (default: the
   * utterance's words, at once). An empty `text` is an empty transcript (a cough). With
   * `stt.transcriptEnd`, `TranscriptEnd` follows the last piece.
   */
  pieces?: Array<{ text: string; afterMs?: number }>
  /** The STT fails (`Failed`) this long after the end of the audio, after the pieces due before. */
  failAfterMs?: number
  /** The STT says nothing at all for this utterance: no transcript, no `TranscriptEnd`. */
  silent?: boolean
}

/**
 * One step of the simulated user, taken once the previous one is over. Each is an object with one
 * key naming it: `{ "say": "Hi there", "ms": 800 }`, `{ "pause": 300 }`, ...
 */
export type UserStep =
  /**
   * Speaks: `StartSpeaking`, 100 ms audio chunks for `ms` (default 300 ms per word, at least
   * 300), then `StopSpeaking` (or `Mute`, or a hang-up, with `endWith`).
   */
  | { say: string; ms?: number; stt?: ScriptedTranscript; endWith?: 'stop' | 'mute' | 'hangUp' }
  /** A cough of `cough` ms: an utterance whose transcript is empty unless `stt` says otherwise. */
  | { cough: number; stt?: ScriptedTranscript }
  /** Waits `pause` ms. */
  | { pause: number }
  /**
   * Waits until the client plays assistant audio (`'speech'`: at once if it is playing; a
   * barge-in `thenMs` into it), or until the assistant is quiet (`'quiet'`: nothing playing,
   * nothing paused, no answer awaited, for `thenMs` in a row, default 300). Gives up after `maxMs`
   * (default 15 000).
   */
  | { waitFor: 'speech' | 'quiet'; thenMs?: number; maxMs?: number }
  /** Pauses the call: the client stops playback and sends `Mute`. */
  | { mute: true }
  /** Hangs up: the client closes the connection (1000). The steps after it are not taken. */
  | { hangUp: true }

/**
 * What the default agent (core's `MockAgent`, with `end_call`, `ignore_user_noise` and
 * `semantic_turn` enabled) answers to one `answer()`. A string is its text.
 */
export type ScriptedAnswer =
  | string
  | {
      /** Streamed word by word. */
      text?: string
      /** Tools the model calls after its text: `end_call`, `ignore_user_noise`, `semantic_turn`, or any other name (an unknown tool: its result is an error). */
      tools?: string[]
      /** What the model says in the call after the tools (unless a tool skipped the answer). */
      then?: string
      /** The model call fails with this message, after its text. */
      error?: string
      /** The model takes this long before its first word (ms), on top of `agent.firstWordDelayMs`. */
      delayMs?: number
    }

/**
 * A whole simulated call, as plain JSON: `simulateCall` replays the same script the same way,
 * event for event. Everything is optional but `steps`.
 */
export interface CallScript {
  /**
   * The client: `'openmic'` (openmic's protocol: `Hello`, `Played`, pause and `Resume`, captions)
   * or `'micdrop'` (Micdrop's browser client: no extension). Default `'openmic'`.
   */
  client?: 'openmic' | 'micdrop'
  /** One-way network latency, each frame delayed by it, in order (default 20 ms). */
  latencyMs?: number
  /** The client's playback starts this long after audio comes to an empty queue (default 60 ms). */
  prebufferMs?: number
  /**
   * The client's end of speech: `StopSpeaking` goes this long after the user's speech ended
   * (default 0). An utterance that starts before then goes on the same utterance (its audio in
   * the same STT stream); an openmic client talking to a preemptive server sends `PauseSpeaking`
   * when the speech ends and `ResumeSpeaking` when it goes on.
   */
  endSilenceMs?: number
  /** The server's options (the default server only). */
  server?: {
    firstMessage?: string
    resumeAfterNoise?: boolean
    transcriptGraceMs?: number
    transcriptTimeoutMs?: number
    resumeTimeoutMs?: number
    /** Preemptive answers: an openmic client then reports the user's pauses. */
    preemptive?: boolean
  }
  /** The default agent: one answer per `answer()`, in order, the last one repeating. */
  agent?: {
    /** Default: `You said: "<the last user message>"`. */
    answers?: ScriptedAnswer[]
    /** Before the first word of each model call (ms, default 0). */
    firstWordDelayMs?: number
    /** Before each next word (ms, default 0). */
    wordDelayMs?: number
  }
  /** The simulated STT. */
  stt?: {
    /** It signals `TranscriptEnd` after each utterance's last piece (default true). */
    transcriptEnd?: boolean
  }
  /** The simulated TTS (core's `MockTTS`: 10 ms of audio per character, with `Words` timings). */
  tts?: {
    firstAudioDelayMs?: number
    /** Audio per chunk (ms, default 100). */
    chunkMs?: number
    /** Between chunks (ms, default 0: all audio of a text at once). */
    chunkDelayMs?: number
    /** `speak()` calls (numbered from 1) that fail (`Failed`) after `afterChunks` chunks. */
    failures?: Array<{ speak: number; afterChunks: number }>
  }
  /**
   * The simulated conversation store (the call starts a new conversation). While its history
   * loads the server holds the client's frames; the checks take them as handled once it loaded,
   * just before the server's first frame (roughly: a user turn that ends before the load may be
   * miscounted).
   */
  store?: {
    /** Each append takes this long (ms, default 0). */
    appendDelayMs?: number
    /** Loading the history takes this long (ms, default 0). */
    loadDelayMs?: number
    /** Append attempts (numbered from 1, retries included) that fail. */
    failAppends?: number[]
  }
  /** What the user does, in order, from the moment the call connects. */
  steps: UserStep[]
}

/** A script with every default filled in: what the simulation runs. */
export interface FullScript {
  client: 'openmic' | 'micdrop'
  latencyMs: number
  prebufferMs: number
  endSilenceMs: number
  server: NonNullable<CallScript['server']>
  agent: { answers?: ScriptedAnswer[]; firstWordDelayMs: number; wordDelayMs: number }
  stt: { transcriptEnd: boolean }
  tts: {
    firstAudioDelayMs: number
    chunkMs: number
    chunkDelayMs: number
    failures: Array<{ speak: number; afterChunks: number }>
  }
  store: { appendDelayMs: number; loadDelayMs: number; failAppends: number[] }
  steps: UserStep[]
}

/** The audio per character of the simulated TTS (core's MockTTS default): word timings follow. */
export const MS_PER_CHAR = 10

export function fullScript(script: CallScript): FullScript {
  return {
    client: script.client ?? 'openmic',
    latencyMs: script.latencyMs ?? 20,
    prebufferMs: script.prebufferMs ?? 60,
    endSilenceMs: script.endSilenceMs ?? 0,
    server: { ...script.server },
    agent: {
      answers: script.agent?.answers,
      firstWordDelayMs: script.agent?.firstWordDelayMs ?? 0,
      wordDelayMs: script.agent?.wordDelayMs ?? 0,
    },
    stt: { transcriptEnd: script.stt?.transcriptEnd ?? true },
    tts: {
      firstAudioDelayMs: script.tts?.firstAudioDelayMs ?? 0,
      chunkMs: script.tts?.chunkMs ?? 100,
      chunkDelayMs: script.tts?.chunkDelayMs ?? 0,
      failures: script.tts?.failures ?? [],
    },
    store: {
      appendDelayMs: script.store?.appendDelayMs ?? 0,
      loadDelayMs: script.store?.loadDelayMs ?? 0,
      failAppends: script.store?.failAppends ?? [],
    },
    steps: script.steps,
  }
}

/** An utterance step: spoken words or a cough. */
export type UtteranceStep = Extract<UserStep, { say: string } | { cough: number }>

export function isUtterance(step: UserStep): step is UtteranceStep {
  return 'say' in step || 'cough' in step
}

/** How long the user speaks in an utterance step (ms). */
export function utteranceMs(step: UtteranceStep): number {
  if ('cough' in step) return step.cough
  return step.ms ?? Math.max(300, 300 * words(step.say).length)
}

/** The utterance steps of a script, in order: utterance n (from 1) is `utterances(script)[n - 1]`. */
export function utterances(steps: UserStep[]): UtteranceStep[] {
  return steps.filter(isUtterance)
}

/** The words of a text (runs of non-space characters). */
export function words(text: string): string[] {
  return text.match(/\S+/g) ?? []
}
