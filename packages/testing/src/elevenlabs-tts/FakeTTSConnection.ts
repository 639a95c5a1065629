import { MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'
import type { IncomingHttpHeaders } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import type { WebSocket } from 'ws'
import { FakeTTSContext } from './FakeTTSContext.js'
import { toneAt } from './tone.js'
import type { FakeTTSContextReply } from './types.js'

/** The API's limit of open contexts on one connection. */
export const MAX_CONTEXTS = 5

/**
 * One connection of the fake multi-context TTS server: records what the client sent, context by
 * context, and generates each context's speech as its reply says.
 */
export class FakeTTSConnection {
  /** Every client message, parsed (one that is not JSON is kept as its text). */
  readonly messages: unknown[] = []
  /** The contexts opened on it, by id, in order. */
  readonly contexts = new Map<string, FakeTTSContext>()
  /** Whether the connection is closed (by either side). */
  closed = false
  private samples = 0
  private readonly rate: number

  constructor(
    private readonly socket: WebSocket,
    /** Path and query of the upgrade (`model_id`, `output_format`, `inactivity_timeout`...). */
    readonly url: URL,
    readonly headers: IncomingHttpHeaders,
    private readonly replyOf: () => FakeTTSContextReply,
    private readonly ignoreCloseContext: boolean
  ) {
    this.rate =
      Number((url.searchParams.get('output_format') ?? 'pcm_16000').split('_')[1]) ||
      MICDROP_AUDIO_FORMAT.sampleRate
    socket.on('message', (data) => this.receive(String(data)))
    socket.on('close', () => (this.closed = true))
    socket.on('error', () => {})
  }

  /** The voice id of the path. */
  get voiceId(): string | undefined {
    return /\/v1\/text-to-speech\/([^/]+)\//.exec(this.url.pathname)?.[1]
  }

  /** True while the socket is open. */
  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN
  }

  /** Sends one server message, JSON-encoded (a string is sent as it is). */
  send(message: unknown): void {
    if (this.open) this.socket.send(typeof message === 'string' ? message : JSON.stringify(message))
  }

  /** Closes the socket with a close frame (default 1000). */
  close(code = 1000, reason = ''): void {
    if (this.open) this.socket.close(code, reason)
  }

  /** Cuts the TCP connection without a close frame. */
  reset(): void {
    this.socket.terminate()
  }

  private receive(text: string): void {
    let message: Record<string, unknown>
    try {
      message = JSON.parse(text)
    } catch {
      this.messages.push(text)
      return this.send({ message: 'Invalid JSON', error: 'invalid_request', code: 1008 })
    }
    this.messages.push(message)
    if (message.close_socket === true) return this.close(1000)
    const id = typeof message.context_id === 'string' ? message.context_id : 'default'
    let context = this.contexts.get(id)
    if (!context) {
      const open = [...this.contexts.values()].filter((c) => !c.final).length
      if (open >= MAX_CONTEXTS) {
        this.send({
          message: `Maximum simultaneous contexts per WebSocket connection exceeded (${MAX_CONTEXTS}).`,
          error: 'max_active_conversations',
          code: 1008,
        })
        return this.close(1008)
      }
      context = new FakeTTSContext(id, message, this.replyOf())
      this.contexts.set(id, context)
      if (message.text === ' ' && message.flush !== true) return
    }
    this.onContextMessage(context, message)
  }

  private onContextMessage(context: FakeTTSContext, message: Record<string, unknown>): void {
    const text = typeof message.text === 'string' ? message.text : ''
    if (message.close_context === true) {
      context.closed = true
      if (!this.ignoreCloseContext && context.flushes === 0) context.buffer = ''
      return this.after(context, () => this.final(context))
    }
    if (context.closed && !this.ignoreCloseContext) return
    if (text === '' && message.flush !== true) {
      context.keepAlives++
      return
    }
    context.texts.push(text)
    if (message.flush === true) context.flushes++
    const { reply } = context
    if (reply.type === 'stall') return
    if (reply.type === 'error') {
      if (text.trim() === '' && message.flush !== true) return
      this.send({
        message: reply.message,
        error: reply.error ?? 'input_error',
        code: reply.code ?? 1008,
        ...(reply.withContextId ? { contextId: context.id } : {}),
      })
      if (reply.closeCode !== undefined) this.close(reply.closeCode)
      return
    }
    context.buffer += text
    const generateAt = reply.generateAtChars ?? 40
    const flush = message.flush === true
    const cut = flush ? context.buffer.length : cutAt(context.buffer, generateAt)
    if (cut <= 0) return
    const piece = context.buffer.slice(0, cut)
    context.buffer = context.buffer.slice(cut)
    this.after(context, () => this.speak(context, piece, reply))
  }

  /** Runs a step of a context once its earlier steps are done. */
  private after(context: FakeTTSContext, step: () => Promise<void> | void): void {
    context.generating = context.generating.then(step).catch(() => {})
  }

  private async speak(
    context: FakeTTSContext,
    piece: string,
    reply: Extract<FakeTTSContextReply, { type: 'speech' }>
  ): Promise<void> {
    const msPerChar = reply.msPerChar ?? 20
    const size = reply.charsPerMessage ?? 8
    if (context.audioMessages === 0 && reply.firstAudioDelayMs) await sleep(reply.firstAudioDelayMs)
    for (let at = 0; at < piece.length; at += size) {
      if (!this.open || context.final) return
      if (context.closed && !this.ignoreCloseContext && context.flushes === 0) return
      const chars = [...piece.slice(at, at + size)]
      const audio = toneAt(this.rate, chars.length * msPerChar, this.samples)
      this.samples += audio.length / 2
      const alignment = {
        chars,
        charStartTimesMs: chars.map((_, i) => i * msPerChar),
        charDurationsMs: chars.map(() => msPerChar),
      }
      this.send({
        audio: audio.toString('base64'),
        normalizedAlignment: alignment,
        alignment,
        contextId: context.id,
      })
      context.audioBytes += audio.length
      context.audioMessages++
      if (context.closed) context.audioAfterClose++
      await sleep(reply.chunkDelayMs ?? 2)
    }
  }

  private final(context: FakeTTSContext): void {
    if (context.final) return
    context.final = true
    // A context scripted to fail or stall is let go of silently: it frees its place.
    if (context.reply.type !== 'speech') return
    this.send({ isFinal: true, contextId: context.id })
  }
}

/** Where to cut a buffer to generate its first `atLeast` characters, at a blank (0: not yet). */
function cutAt(buffer: string, atLeast: number): number {
  if (buffer.length < atLeast) return 0
  const blank = buffer.lastIndexOf(' ')
  return blank >= atLeast - 1 ? blank + 1 : 0
}
