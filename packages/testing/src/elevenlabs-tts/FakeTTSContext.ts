import type { FakeTTSContextReply } from './types.js'

/** What the fake received for one context, and where its generation stands. */
export class FakeTTSContext {
  /** The `text` of every message to this context after its opening `' '`, in order. */
  readonly texts: string[] = []
  /** The first message of the context (`voice_settings`...). */
  readonly init: Record<string, unknown>
  /** How many messages asked for a flush. */
  flushes = 0
  /** How many keep-alives (`text: ''` without flush) came. */
  keepAlives = 0
  /** True once `close_context` came. */
  closed = false
  /** True once the fake sent its `isFinal`. */
  final = false
  /** Bytes of audio sent for it. */
  audioBytes = 0
  /** Audio messages sent for it. */
  audioMessages = 0
  /** Audio messages sent after its `close_context` arrived. */
  audioAfterClose = 0
  /** Text buffered, not generated yet. */
  buffer = ''
  /** Generation running for it (one piece after the other). */
  generating: Promise<void> = Promise.resolve()

  constructor(
    readonly id: string,
    init: Record<string, unknown>,
    readonly reply: FakeTTSContextReply
  ) {
    this.init = init
  }

  /** The text received for it, joined. */
  get text(): string {
    return this.texts.join('')
  }
}
