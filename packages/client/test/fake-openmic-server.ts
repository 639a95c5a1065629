import {
  MicdropClientCommands,
  encodeServerMessage,
  parseClientExtension,
} from '@openmic/core/protocol'
import type { MicdropConversation, MicdropConversationItem } from '@openmic/core/protocol'
import { audio } from './fake-call.js'
import type { FakeWebSocket } from './fakes.js'

interface Answer {
  words: string[]
  /** Position (ms of the connection's audio) where the answer starts. */
  startMs: number
  /** Words sent so far (their audio and Caption). */
  sent: number
}

/**
 * The server side of openmic's protocol (docs/protocol.md), scripted over a {@link FakeWebSocket}:
 * it answers the client's `Hello` with `resume`, speaks an answer word by word (`Caption` of the
 * word, at the position of its end, then its audio), holds the answer a client pauses and settles
 * the pause (`Resume` for noise, `Interrupt` for words), and sends an answer's `Message` once final:
 * played to its end, or cut to the words whose end was played. It replies only on
 * {@link FakeOpenmicServer.deliver}, as a real socket would, after the client's call returned.
 */
export class FakeOpenmicServer {
  /** The conversation as the server keeps it. */
  readonly conversation: MicdropConversation = []
  private readonly outbox: Array<string | ArrayBuffer> = []
  private sentMs = 0
  private played?: { ms: number; paused: boolean }
  private answer?: Answer
  /** The client paused the answer at this position: held until the verdict. */
  private heldAtMs?: number

  /**
   * @param transcripts - What the STT hears in each utterance, in order (`''`: noise).
   * @param msPerWord - Length of each word's audio.
   */
  constructor(
    private readonly ws: FakeWebSocket,
    private readonly transcripts: string[],
    private readonly msPerWord = 100
  ) {
    for (const frame of ws.sent) this.onFrame(frame)
    ws.onSend = (frame) => this.onFrame(frame)
  }

  /** Starts an answer: `text` is said word by word as {@link stream} sends them. */
  speak(text: string): void {
    this.answer = { words: text.split(' '), startMs: this.sentMs, sent: 0 }
  }

  /** Sends the next `count` words of the answer (none while the client holds it paused). */
  stream(count: number): void {
    const answer = this.answer
    if (!answer || this.heldAtMs !== undefined) return
    for (const word of answer.words.slice(answer.sent, answer.sent + count)) {
      const text = answer.sent === 0 ? word : ` ${word}`
      this.send(encodeServerMessage('Caption', { text, atMs: this.sentMs + this.msPerWord }))
      this.send(audio(this.msPerWord))
      this.sentMs += this.msPerWord
      answer.sent++
    }
  }

  /** The answer played to its end (by this server's reckoning): its whole Message goes. */
  finish(): void {
    const answer = this.answer
    if (!answer) return
    this.answer = undefined
    this.add({ role: 'assistant', content: answer.words.join(' ') })
  }

  /** Sends the frames queued since the last call, and the replies they cause. */
  deliver(): void {
    while (this.outbox.length > 0) this.ws.receive(this.outbox.shift()!)
  }

  private onFrame(frame: string | ArrayBuffer) {
    if (typeof frame !== 'string') return
    const extension = parseClientExtension(frame)
    if (extension?.type === 'Hello')
      return this.send(encodeServerMessage('Hello', { resume: true }))
    if (extension?.type === 'Played') {
      this.played = { ms: extension.played.ms, paused: !!extension.played.paused }
      return
    }
    if (frame === MicdropClientCommands.StartSpeaking) return this.onStartSpeaking()
    if (frame === MicdropClientCommands.StopSpeaking) return this.onStopSpeaking()
    if (frame === MicdropClientCommands.Mute) return this.cut()
  }

  private onStartSpeaking() {
    const played = this.played
    this.played = undefined
    if (!this.answer) return
    // Something left to hold: the answer waits for the verdict
    if (played?.paused && played.ms < this.sentMs) {
      this.heldAtMs = played.ms
      return
    }
    if (played?.paused) this.send('Interrupt')
    this.cut(played?.ms)
  }

  private onStopSpeaking() {
    const transcript = this.transcripts.shift() ?? ''
    const heldAtMs = this.heldAtMs
    this.heldAtMs = undefined
    if (heldAtMs !== undefined && transcript === '') {
      this.send('Resume')
      this.stream(Infinity) // the rest, produced meanwhile
    } else if (heldAtMs !== undefined) {
      this.send('Interrupt')
      this.cut(heldAtMs)
    }
    if (transcript === '') return this.send('SkipAnswer')
    this.add({ role: 'user', content: transcript })
  }

  /** The answer is cut where the client's playback was: it keeps the words whose end was played. */
  private cut(playedMs = this.sentMs) {
    const answer = this.answer
    if (!answer) return
    this.answer = undefined
    const heard = answer.words.filter(
      (_, i) => answer.startMs + (i + 1) * this.msPerWord <= playedMs
    )
    // Nothing played: no assistant message at all
    if (heard.length === 0) return
    this.add({
      role: 'assistant',
      content: heard.join(' '),
      metadata: {
        interrupted: true,
        fullContent: answer.words.join(' '),
        heardMs: playedMs - answer.startMs,
      },
    })
  }

  private add(item: MicdropConversationItem) {
    this.conversation.push(item)
    this.send(encodeServerMessage('Message', item))
  }

  private send(frame: string | ArrayBuffer) {
    this.outbox.push(frame)
  }
}
