/**
 * Holds outgoing frames, in order, while a record they follow is being stored: a `Message` frame
 * (and everything sent after it) leaves only once its item is stored, or once the store writer
 * lets it go.
 */
export class FrameGate {
  private held?: Array<() => void>
  private holds = 0

  /** Runs `send` now, or after the holds in progress. */
  deliver(send: () => void): void {
    if (this.held) this.held.push(send)
    else send()
  }

  /** Holds the frames delivered from now on until `until` resolves (and every earlier hold). */
  hold(until: Promise<void>): void {
    this.held ??= []
    this.holds++
    void until.then(() => {
      if (--this.holds > 0) return
      const held = this.held ?? []
      this.held = undefined
      for (const send of held) send()
    })
  }
}
