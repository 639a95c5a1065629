import { USER_CHUNK_MS, userChunk } from './audio-tags.js'
import type { CallLog } from './call-log.js'
import type { SimulatedClient } from './simulated-client.js'
import { isUtterance, utteranceMs, type UserStep, type UtteranceStep } from './script.js'

const DEFAULT_QUIET_MS = 300
const DEFAULT_MAX_WAIT_MS = 15_000
const END_EVENT = { stop: 'stop', mute: 'mute', hangUp: 'hang-up' } as const

/**
 * The user of a simulated call: takes the script's steps one after the other, through the client
 * (speaking is `StartSpeaking`, a 100 ms chunk of audio every 100 ms, then `StopSpeaking`).
 * Stops early when the call is over.
 */
export class SimulatedUser {
  /** All steps were taken (or the call ended first). */
  done = false
  private index = 0
  private utterance = 0
  /** Undoes the wait in progress (its timers and listener). */
  private cancelWait?: () => void
  /** Looks again at the client, for the wait in progress. */
  private waitCheck?: () => void

  constructor(
    private readonly steps: UserStep[],
    private readonly client: SimulatedClient,
    private readonly log: CallLog
  ) {
    client.onChange(() => this.waitCheck?.())
  }

  start(): void {
    this.next()
  }

  private next(): void {
    this.cancelWait?.()
    this.cancelWait = undefined
    this.waitCheck = undefined
    if (!this.client.isOpen || this.index >= this.steps.length) {
      this.done = true
      return
    }
    const step = this.steps[this.index++]!
    if (isUtterance(step)) return this.speak(step)
    if ('pause' in step) return this.after(step.pause)
    if ('waitFor' in step) {
      const giveUp = setTimeout(() => this.next(), step.maxMs ?? DEFAULT_MAX_WAIT_MS)
      const undo =
        step.waitFor === 'speech'
          ? this.waitForSpeech(step.thenMs ?? 0)
          : this.waitForQuiet(step.thenMs ?? DEFAULT_QUIET_MS)
      this.cancelWait = () => {
        clearTimeout(giveUp)
        undo()
      }
      return
    }
    if ('mute' in step) {
      this.log.add({ type: 'user', what: 'mute' })
      this.client.mute()
      return this.next()
    }
    this.log.add({ type: 'user', what: 'hang-up' })
    this.client.hangUp(true)
    this.done = true
  }

  private after(ms: number) {
    const timer = setTimeout(() => this.next(), ms)
    this.cancelWait = () => clearTimeout(timer)
  }

  private speak(step: UtteranceStep) {
    const utterance = ++this.utterance
    const ms = utteranceMs(step)
    const words = 'say' in step ? step.say : ''
    const end = 'say' in step ? (step.endWith ?? 'stop') : 'stop'
    this.log.add({ type: 'user', what: 'start', utterance, words })
    this.client.startSpeaking()
    let sent = 0
    const tick = () => {
      if (!this.client.isOpen) return this.next()
      while ((sent + 1) * USER_CHUNK_MS <= Math.min(ms, Date.now() - startedAt)) {
        sent++
        this.client.sendAudio(userChunk(utterance))
      }
      if (Date.now() - startedAt < ms) {
        const nextChunkAt = startedAt + (sent + 1) * USER_CHUNK_MS
        return void setTimeout(tick, Math.min(nextChunkAt, startedAt + ms) - Date.now())
      }
      this.log.add({ type: 'user', what: END_EVENT[end], utterance })
      if (end === 'stop') this.client.stopSpeaking()
      else if (end === 'mute') this.client.mute()
      else {
        this.client.hangUp(true)
        this.done = true
        return
      }
      this.next()
    }
    const startedAt = Date.now()
    setTimeout(tick, Math.min(USER_CHUNK_MS, ms))
  }

  /** Waits until the client plays assistant audio, then `thenMs` more; returns the undo. */
  private waitForSpeech(thenMs: number): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined
    const check = () => {
      if (timer) return
      const startsAt = this.client.speaker.runStartsAt
      if (startsAt === undefined && this.client.isOpen) return
      const delay = startsAt === undefined ? 0 : Math.max(0, startsAt - Date.now()) + thenMs
      timer = setTimeout(() => this.next(), delay)
    }
    this.waitCheck = check
    check()
    return () => clearTimeout(timer)
  }

  /** Waits until the assistant has been quiet for `quietMs` in a row; returns the undo. */
  private waitForQuiet(quietMs: number): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined
    const check = () => {
      const { client } = this
      const quiet =
        !client.isOpen || (!client.processing && !client.answerPaused && !client.speaker.isPlaying)
      if (!quiet) {
        clearTimeout(timer)
        timer = undefined
      } else if (!timer) {
        timer = setTimeout(() => this.next(), client.isOpen ? quietMs : 0)
      }
    }
    this.waitCheck = check
    check()
    return () => clearTimeout(timer)
  }
}
