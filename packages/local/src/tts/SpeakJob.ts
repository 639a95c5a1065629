import type { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { SentenceSplitter } from '@openmic/core/provider'

/** The text of one `speak()` call, read sentence by sentence. */
export class SpeakJob {
  /** Sentences read but not yet sent to the synthesizer. */
  readonly sentences: string[] = []
  /** True once the text stream ended (or failed): no sentence will be added. */
  ended = false
  private readonly decoder = new StringDecoder('utf8')
  private readonly splitter: SentenceSplitter

  /**
   * @param onChange - Called when sentences were added or the text ended.
   * @param onError - Called when the text stream fails (the job then ends).
   */
  constructor(
    private readonly text: Readable,
    maxSentenceLength: number,
    private readonly onChange: () => void,
    private readonly onError: (error: unknown) => void
  ) {
    this.splitter = new SentenceSplitter(maxSentenceLength)
    if (text.readableEnded) {
      this.ended = true
      return
    }
    text.on('data', this.onData)
    text.on('end', this.onEnd)
    text.on('error', this.onFailure)
    text.on('close', this.onEnd)
  }

  /** Stops reading the text. */
  detach(): void {
    this.text.off('data', this.onData)
    this.text.off('end', this.onEnd)
    this.text.off('error', this.onFailure)
    this.text.off('close', this.onEnd)
  }

  private readonly onData = (chunk: Buffer | string) => {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk)
    this.add(this.splitter.push(text))
  }

  /** The text ended, or its stream was destroyed without an error: what was read is spoken. */
  private readonly onEnd = () => {
    this.detach()
    this.ended = true
    this.add([...this.splitter.push(this.decoder.end()), ...this.splitter.flush()])
  }

  private readonly onFailure = (error: unknown) => {
    this.detach()
    this.ended = true
    this.onError(error)
    this.onChange()
  }

  private add(sentences: string[]) {
    this.sentences.push(...sentences)
    if (sentences.length > 0 || this.ended) this.onChange()
  }
}
