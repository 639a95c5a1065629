import { speakable } from './speakable.js'

/**
 * A sentence ends with . ! ? or … (and closing quotes, brackets or markdown marks) before a space,
 * or at a line break.
 */
const SENTENCE_END = /[.!?…]+["'”’)\]*_`]*\s+|\n+/
/** Where to cut a sentence that is too long: the last clause mark, else the last space. */
const CLAUSE_END = /[,;:]\s+(?=[^,;:]*$)/
/** Text worth speaking contains a letter or a digit. */
const SPEAKABLE = /[\p{L}\p{N}]/u

/**
 * Cuts a stream of text into sentences, so that speech can start after the first one. A sentence
 * longer than `maxLength` characters without an end is cut at its last clause mark or space.
 * Markdown marks are removed ({@link speakable}); pieces with nothing to say (only punctuation or
 * spaces) are dropped.
 */
export class SentenceSplitter {
  private buffer = ''

  constructor(private readonly maxLength = 200) {}

  /** Adds text; returns the sentences it completed. */
  push(text: string): string[] {
    this.buffer += text
    const sentences: string[] = []
    for (;;) {
      const end = SENTENCE_END.exec(this.buffer)
      if (end) {
        this.take(end.index + end[0].length, sentences)
      } else if (this.buffer.length > this.maxLength) {
        this.take(this.cutPoint(), sentences)
      } else {
        return sentences
      }
    }
  }

  /** Returns what is left (the text ended). */
  flush(): string[] {
    const sentences: string[] = []
    this.take(this.buffer.length, sentences)
    return sentences
  }

  private cutPoint(): number {
    const head = this.buffer.slice(0, this.maxLength)
    const clause = CLAUSE_END.exec(head)
    if (clause) return clause.index + clause[0].length
    const space = head.lastIndexOf(' ')
    return space > 0 ? space + 1 : this.maxLength
  }

  private take(length: number, into: string[]) {
    const sentence = speakable(this.buffer.slice(0, length))
    this.buffer = this.buffer.slice(length)
    if (SPEAKABLE.test(sentence)) into.push(sentence)
  }
}
