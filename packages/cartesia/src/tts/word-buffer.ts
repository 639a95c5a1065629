/**
 * Cuts a streamed text at word ends, so Cartesia never gets half a word (an LLM's tokens split
 * words): `push` returns the text up to the last blank and keeps the rest for later.
 */
export class WordBuffer {
  private rest = ''

  /** The complete words of what arrived so far ('' when the last word is not finished yet). */
  push(text: string): string {
    const all = this.rest + text
    const cut = Math.max(all.lastIndexOf(' '), all.lastIndexOf('\n'), all.lastIndexOf('\t')) + 1
    this.rest = all.slice(cut)
    return all.slice(0, cut)
  }

  /** What is left at the end of the text. */
  end(): string {
    const rest = this.rest
    this.rest = ''
    return rest
  }
}
