/** One place in the line of outgoing frames: a frame to send, or a record being stored. */
type Place = { send: () => void } | { stored: boolean }

/**
 * Holds outgoing frames, in order, while a record they follow is being stored: a `Message` frame
 * (and everything sent after it) leaves only once its item is stored, or once the store writer
 * lets it go. A frame waits for the records before it, never for those that came after it.
 */
export class FrameGate {
  private readonly line: Place[] = []

  /** Runs `send` now, or once the records before it are stored. */
  deliver(send: () => void): void {
    if (this.line.length === 0) send()
    else this.line.push({ send })
  }

  /** Holds the frames delivered from now on until `until` resolves (and every earlier hold). */
  hold(until: Promise<void>): void {
    const place = { stored: false }
    this.line.push(place)
    void until.then(() => {
      place.stored = true
      this.release()
    })
  }

  /** Sends, in order, the frames no pending record comes before. */
  private release() {
    while (this.line.length > 0) {
      const head = this.line[0]!
      if ('stored' in head && !head.stored) return
      this.line.shift()
      if ('send' in head) head.send()
    }
  }
}
