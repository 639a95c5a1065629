import type { OutboxEntry, OutboxOwner, Release } from './outbox.js'

/**
 * A user turn whose end is not confirmed: the user paused (`PauseSpeaking`, a VAD's
 * `SpeechPause`) and may go on. The answer started at the pause (a preemptive answer) and the
 * turn's user message wait for the confirmation (`StopSpeaking`): until then the client and the
 * store see nothing of them, so a user who goes on leaves no trace of the pause. Lives from the
 * first pause of the turn to its confirmed end, through every `ResumeSpeaking`.
 */
export class TurnEnd implements OutboxOwner {
  /** The user is silent in a pause now (else they went on speaking). */
  paused = true
  /** The preemptive answer ended the call (`end_call`): `EndCall` follows only once confirmed. */
  endsCall = false
  /** The preemptive answer found the words noise: what the client paused resumes once confirmed. */
  noise = false
  private confirmed = false

  /** The end of the turn is confirmed: what waited for it may go (flush the outbox). */
  confirm(): void {
    this.confirmed = true
  }

  releaseOf(_entry: OutboxEntry): Release {
    return this.confirmed ? 'now' : 'wait'
  }
}
