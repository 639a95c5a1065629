import type { MicdropConversation, MicdropConversationMessage } from '@openmic/core/protocol'

/** A user or assistant message with the audio it was said with (PCM16 16 kHz mono). */
export interface MicdropAudioMessage {
  role: 'user' | 'assistant'
  content: string
  /** The conversation item, as sent in the `Message` command. */
  item: MicdropConversationMessage
  /** The user's utterance, or the assistant audio the user heard (cut where they barged in). */
  audio: Buffer
}

/** Everything recorded during a call. */
export interface MicdropRecording {
  messages: MicdropAudioMessage[]
  conversation: MicdropConversation
  /** Duration of the call, in seconds. */
  duration: number
}

export interface MicdropRecorderEvents {
  /** A message and its audio, once its audio is complete. */
  AudioMessage: [message: MicdropAudioMessage]
  /** The call ended: all messages with their audio. */
  Complete: [recording: MicdropRecording]
}
