/** What the client sent for one request of the fake TTS, and what the fake answered. */
export class FakeGradiumTTSRequest {
  /** The texts of its `text` messages, in order. */
  readonly texts: string[] = []
  /** The fake sent its `ready`. */
  readySent = false
  /** Messages of it the client sent before its `ready` (Gradium's clients wait for it). */
  readonly beforeReady: unknown[] = []
  /** The client sent its `end_of_stream`. */
  ended = false
  /** Messages of it the client sent after its `end_of_stream` (Gradium wants none). */
  readonly afterEnd: unknown[] = []
  /** Bytes of audio the fake sent for it. */
  audioBytes = 0
  /** The fake sent its `end_of_stream`. */
  finished = false

  constructor(
    /** Its `client_req_id` (undefined for a request that is not multiplexed). */
    readonly id: string | undefined,
    /** Its `setup` message. */
    readonly setup: { type: 'setup'; [key: string]: unknown }
  ) {}

  /** Its whole text, as the client sent it. */
  get text(): string {
    return this.texts.join('')
  }

  /** The setup's `json_config`, parsed (Gradium's clients send it as a JSON string). */
  get jsonConfig(): unknown {
    const config = this.setup.json_config
    return typeof config === 'string' ? JSON.parse(config) : config
  }
}
