/**
 * Text commands a client sends (wire-compatible with Micdrop). Binary frames carry PCM16 audio.
 */
export const MicdropClientCommands = {
  StartSpeaking: 'StartSpeaking',
  StopSpeaking: 'StopSpeaking',
  Mute: 'Mute',
} as const
export type MicdropClientCommand =
  (typeof MicdropClientCommands)[keyof typeof MicdropClientCommands]

/**
 * Text messages a server sends: a bare word, or a word, a space and a JSON payload
 * (`Message {"role":"assistant",...}`). Clients ignore names they do not know.
 */
export const MicdropServerCommands = {
  Message: 'Message',
  CancelLastUserMessage: 'CancelLastUserMessage',
  SkipAnswer: 'SkipAnswer',
  EndCall: 'EndCall',
  ToolCall: 'ToolCall',
  Metrics: 'Metrics',
  /** openmic extension: the utterance that paused the answer was noise; play on (the rest follows). */
  Resume: 'Resume',
  /** openmic extension: the user really interrupted; drop the paused answer. */
  Interrupt: 'Interrupt',
  /** openmic extension: the reply to a client's `Hello`, with what the server does ({@link MicdropServerHello}). */
  Hello: 'Hello',
  /** openmic extension: words of the answer being spoken, to show in step with playback ({@link MicdropCaption}). */
  Caption: 'Caption',
} as const
export type MicdropServerCommand =
  (typeof MicdropServerCommands)[keyof typeof MicdropServerCommands]

/** WebSocket close codes of the protocol. */
export const MicdropCloseCodes = {
  Normal: 1000,
  MessageTooBig: 1009,
  InternalError: 1011,
  BadRequest: 4400,
  Unauthorized: 4401,
  NotFound: 4404,
} as const
export type MicdropCloseCode = (typeof MicdropCloseCodes)[keyof typeof MicdropCloseCodes]

/**
 * Audio on the wire, and everywhere inside openmic (the STTs' input, the TTSs' output): PCM,
 * signed 16-bit little-endian, mono, 16 kHz, no header. `bytesPerMs` is one millisecond of it.
 */
export const MICDROP_AUDIO_FORMAT = {
  encoding: 'pcm_s16le',
  sampleRate: 16000,
  channels: 1,
  bytesPerSample: 2,
  bytesPerMs: 32,
} as const

/** Bytes of `ms` milliseconds of {@link MICDROP_AUDIO_FORMAT} audio, in whole samples. */
export function audioBytes(ms: number): number {
  const { sampleRate, bytesPerSample, channels } = MICDROP_AUDIO_FORMAT
  return Math.round((ms * sampleRate) / 1000) * bytesPerSample * channels
}

/** Milliseconds of {@link MICDROP_AUDIO_FORMAT} audio in `bytes` bytes. */
export function audioMs(bytes: number): number {
  return bytes / MICDROP_AUDIO_FORMAT.bytesPerMs
}
