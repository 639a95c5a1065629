import type { MicdropConversationItem } from '../conversation/types.js'
import { audioBytes, audioMs } from '../protocol/commands.js'
import { RealtimeInput } from '../realtime/RealtimeInput.js'
import { RealtimeModel } from '../realtime/RealtimeModel.js'
import { RealtimeResponse } from '../realtime/RealtimeResponse.js'
import type { RealtimeRespondOptions, RealtimeSessionConfig } from '../realtime/types.js'
import { ProviderError } from '../retry/ProviderError.js'
import type { ModelUsage } from '../telemetry/reports.js'

/** One scripted response of {@link MockRealtime}: spoken text, tool calls, a failure, a stall. */
export type MockRealtimeAnswer =
  | string
  | {
      text?: string
      toolCalls?: Array<{ name: string; parameters?: Record<string, unknown> | string }>
      /** Fail the response with this error, after its text (if any). */
      error?: unknown
      /** Never output anything (until cancelled). */
      stall?: boolean
      /** The tokens its end reports (cancelled or not), as a provider's `response.done` does. */
      usage?: ModelUsage
    }

/** An item of the mock session's conversation: what the model remembers. */
export interface MockRealtimeItem {
  id: string
  role: 'user' | 'assistant' | 'system' | 'tool_call' | 'tool_result'
  /** The words (a message), the arguments (a tool call) or the output (a tool result). */
  text: string
  /** How the item came: the user's committed audio, the model's speech, or created from text. */
  source: 'audio' | 'speech' | 'text'
  /** Audio it holds (user audio, model speech), in ms. */
  audioMs?: number
  /** Where `truncateItem()` cut it, in ms of its audio. */
  truncatedAtMs?: number
  /** A tool item's call id and name. */
  callId?: string
  name?: string
}

export interface MockRealtimeOptions {
  /**
   * The responses, one per `respond()`, in order (the last one repeats), or a function of the
   * session's conversation and the response's number (from 0). Default: repeats the last user
   * item (`You said: "..."`).
   */
  answers?:
    | MockRealtimeAnswer[]
    | ((conversation: readonly MockRealtimeItem[], index: number) => MockRealtimeAnswer)
  /**
   * The transcript of each commit, in order (the last one repeats), or a function of its number
   * (from 0). Default `User message <n>`; a commit of no audio is always `''`.
   */
  transcripts?: string[] | ((index: number) => string)
  /** Delay between a commit and its transcript, in ms (default 0). */
  transcriptDelayMs?: number
  /** Delay between the start of a response and its first output, in ms (default 0). */
  firstAudioDelayMs?: number
  /** Delay between two audio chunks, in ms (default 0). */
  chunkDelayMs?: number
  /** Speech per character of text, in ms (default 10). */
  msPerChar?: number
  /** Largest audio chunk, in ms (default 100). */
  chunkMs?: number
}

/** A response waiting its turn, or playing. */
interface MockRun {
  response: RealtimeResponse
  steps: Array<() => void>
  timer?: NodeJS.Timeout
  /** Its item in the conversation (a spoken message). */
  item?: MockRealtimeItem
  /** The tokens its script says it used, once it started. */
  usage?: ModelUsage
}

const SAMPLE_RATE = 16_000

/**
 * A speech-to-speech model without a network, for tests, demos and benchmarks: scripted answers
 * spoken as a tone whose length follows the text, with their transcript word by word, scripted
 * transcripts of the user's commits, tool calls, failures, stalls and token usage, on timers (so
 * it runs on virtual time). It keeps the session's conversation ({@link MockRealtime.items}: what
 * the model would remember) and what it was asked.
 *
 * @example
 * const model = new MockRealtime({ answers: ['Hello there!'], transcripts: ['Hi'] })
 * const agent = new RealtimeAgent({ model, systemPrompt: 'Be brief.' })
 */
export class MockRealtime extends RealtimeModel {
  /** The session's conversation, in order. */
  items: MockRealtimeItem[] = []
  /** Every configuration received. */
  readonly configs: RealtimeSessionConfig[] = []
  /** Every response asked for: its kind, its options, and the conversation it saw. */
  readonly requests: Array<{
    kind: 'respond' | 'say'
    text?: string
    tools: boolean
    conversation: MockRealtimeItem[]
  }> = []
  /** What went wrong on the mock's side (an unknown item...), as the provider would report it. */
  readonly errors: string[] = []
  /** Sessions opened so far. */
  sessions = 0
  /** User audio appended, over all commits (bytes of PCM16 16 kHz). */
  audioBytes = 0
  private open = false
  private pending = 0
  private commits = 0
  private responses = 0
  private ids = 0
  private queue: MockRun[] = []
  /** Commits whose transcript is not out yet. */
  private readonly inputs = new Set<RealtimeInput>()
  private readonly timers = new Set<NodeJS.Timeout>()
  private phase = 0

  constructor(private readonly options: MockRealtimeOptions = {}) {
    super()
  }

  get session(): string {
    return this.sessions === 0 ? '' : `mock-session-${this.sessions}`
  }

  /** The response being produced, if any. */
  get active(): RealtimeResponse | undefined {
    return this.queue[0]?.response
  }

  configure(config: RealtimeSessionConfig): void {
    this.ensureOpen()
    const last = this.configs.at(-1)
    if (!last || JSON.stringify(last) !== JSON.stringify(config)) this.configs.push(config)
  }

  appendAudio(audio: Buffer): void {
    this.ensureOpen()
    this.pending += audio.length
    this.audioBytes += audio.length
  }

  commitAudio(): RealtimeInput {
    this.ensureOpen()
    const input = new RealtimeInput()
    const bytes = this.pending
    this.pending = 0
    const index = this.commits++
    const transcript = bytes === 0 ? '' : this.transcriptOf(index)
    const item: MockRealtimeItem = {
      id: this.newId(),
      role: 'user',
      text: transcript,
      source: 'audio',
      audioMs: audioMs(bytes),
    }
    if (bytes > 0) this.items.push(item)
    this.inputs.add(input)
    input.whenSettled(
      () => this.inputs.delete(input),
      () => this.inputs.delete(input)
    )
    this.later(0, () => {
      if (bytes > 0) input.committed(item.id)
      this.later(this.options.transcriptDelayMs ?? 0, () => input.transcribed(transcript))
    })
    return input
  }

  clearAudio(): void {
    this.pending = 0
  }

  respond(options: RealtimeRespondOptions = {}): RealtimeResponse {
    this.ensureOpen()
    const response = new RealtimeResponse(this)
    this.requests.push({
      kind: 'respond',
      tools: options.tools ?? true,
      conversation: this.items.map((item) => ({ ...item })),
    })
    const index = this.responses++
    this.enqueue({ response, steps: [] }, () => this.answerOf(index))
    return response
  }

  say(text: string): RealtimeResponse {
    this.ensureOpen()
    const response = new RealtimeResponse(this, false)
    this.requests.push({ kind: 'say', text, tools: false, conversation: [] })
    this.enqueue({ response, steps: [] }, () => text)
    return response
  }

  cancelResponse(response: RealtimeResponse): void {
    const index = this.queue.findIndex((run) => run.response === response)
    if (index === -1) return
    const [run] = this.queue.splice(index, 1)
    clearTimeout(run!.timer)
    this.later(0, () => response.finish({ status: 'cancelled', ...usageOf(run!) }))
    if (index === 0) this.next()
  }

  createItem(item: MicdropConversationItem, placement: { id: string; after?: string | null }) {
    const created = fromOpenmic(item, placement.id)
    if (placement.after === undefined) return void this.items.push(created)
    if (placement.after === null) return void this.items.unshift(created)
    const index = this.items.findIndex((known) => known.id === placement.after)
    if (index === -1) return this.error(`createItem: no item ${placement.after}`)
    this.items.splice(index + 1, 0, created)
  }

  deleteItem(id: string): void {
    const index = this.items.findIndex((item) => item.id === id)
    if (index === -1) return this.error(`deleteItem: no item ${id}`)
    this.items.splice(index, 1)
  }

  truncateItem(id: string, audioEndMs: number): void {
    const item = this.items.find((known) => known.id === id)
    if (!item || item.audioMs === undefined) return this.error(`truncateItem: no spoken item ${id}`)
    if (audioEndMs > item.audioMs) {
      return this.error(`truncateItem: ${audioEndMs} ms is past the ${item.audioMs} ms of ${id}`)
    }
    const kept = Math.round((item.text.length * audioEndMs) / Math.max(item.audioMs, 1))
    item.text = item.text.slice(0, kept)
    item.audioMs = audioEndMs
    item.truncatedAtMs = audioEndMs
  }

  /** Ends the session as a provider that failed would: everything in progress fails, `Failed`. */
  fail(error: unknown = new ProviderError('MockRealtime', 'the session was dropped')): void {
    if (!this.open) return
    this.open = false
    this.items = []
    this.pending = 0
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    for (const input of [...this.inputs]) input.fail(error)
    for (const run of this.queue.splice(0)) {
      clearTimeout(run.timer)
      run.response.finish({ status: 'failed', error })
    }
    this.emit('Failed', error)
  }

  override destroy(): void {
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    for (const run of this.queue) clearTimeout(run.timer)
    this.queue = []
    this.open = false
    super.destroy()
  }

  private ensureOpen() {
    if (this.open) return
    this.open = true
    this.sessions++
  }

  private enqueue(run: MockRun, answer: () => MockRealtimeAnswer) {
    const conversation = run.response.inConversation
    // Scripted when it starts: it answers the conversation as it is then
    run.steps.push(() => this.script(run, answer(), conversation))
    this.queue.push(run)
    // Never from within the call that asked for it, as a provider over a network
    if (this.queue.length === 1) this.later(0, () => this.next())
  }

  /** Plays the next step of the response at the head of the queue. */
  private next() {
    const run = this.queue[0]
    if (!run) return
    const step = run.steps.shift()
    if (step) step()
  }

  private script(run: MockRun, scripted: MockRealtimeAnswer, inConversation: boolean) {
    const answer = typeof scripted === 'string' ? { text: scripted } : scripted
    run.usage = answer.usage
    if (answer.stall) return
    const words = answer.text?.match(/\s*\S+\s*/g) ?? []
    const steps: Array<{ delayMs: number; act: () => void }> = []
    const itemId = this.newId()
    const msPerChar = this.options.msPerChar ?? 10
    words.forEach((word, index) => {
      const delayMs =
        index === 0 ? (this.options.firstAudioDelayMs ?? 0) : (this.options.chunkDelayMs ?? 0)
      steps.push({
        delayMs,
        act: () => {
          if (index === 0) {
            run.response.output({ type: 'item', itemId, kind: 'message' })
            if (inConversation) {
              run.item = { id: itemId, role: 'assistant', text: '', source: 'speech', audioMs: 0 }
              this.items.push(run.item)
            }
          }
          run.response.output({ type: 'transcript', itemId, delta: word })
          for (const audio of this.tone(word.length * msPerChar)) {
            run.response.output({ type: 'audio', itemId, audio })
          }
          if (run.item) {
            run.item.text += word
            run.item.audioMs! += word.length * msPerChar
          }
        },
      })
    })
    for (const call of answer.toolCalls ?? []) {
      steps.push({
        delayMs: steps.length === 0 ? (this.options.firstAudioDelayMs ?? 0) : 0,
        act: () => {
          const callId = `call_${this.newId()}`
          const id = this.newId()
          const args =
            typeof call.parameters === 'string'
              ? call.parameters
              : JSON.stringify(call.parameters ?? {})
          run.response.output({ type: 'item', itemId: id, kind: 'function_call' })
          run.response.output({
            type: 'function-call',
            itemId: id,
            callId,
            name: call.name,
            arguments: args,
          })
          if (inConversation) {
            this.items.push({
              id,
              role: 'tool_call',
              text: args,
              source: 'speech',
              callId,
              name: call.name,
            })
          }
        },
      })
    }
    steps.push({
      delayMs: steps.length === 0 ? (this.options.firstAudioDelayMs ?? 0) : 0,
      act: () => {
        this.queue.shift()
        if (answer.error !== undefined)
          run.response.finish({ status: 'failed', error: answer.error, ...usageOf(run) })
        else run.response.finish({ status: 'completed', ...usageOf(run) })
        this.next()
      },
    })
    const play = () => {
      const step = steps.shift()
      if (!step) return
      const act = () => {
        run.timer = undefined
        if (this.queue[0] !== run) return
        step.act()
        if (this.queue[0] === run) play()
      }
      if (step.delayMs > 0) run.timer = setTimeout(act, step.delayMs)
      else act()
    }
    play()
  }

  private answerOf(index: number): MockRealtimeAnswer {
    const { answers } = this.options
    if (typeof answers === 'function') return answers(this.items, index)
    if (answers && answers.length > 0) return answers[Math.min(index, answers.length - 1)]!
    const lastUser = this.items.findLast((item) => item.role === 'user')
    return lastUser ? `You said: "${lastUser.text}"` : 'Hello!'
  }

  private transcriptOf(index: number): string {
    const { transcripts } = this.options
    if (typeof transcripts === 'function') return transcripts(index)
    if (transcripts && transcripts.length > 0) {
      return transcripts[Math.min(index, transcripts.length - 1)]!
    }
    return `User message ${index + 1}`
  }

  private later(ms: number, act: () => void) {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      act()
    }, ms)
    this.timers.add(timer)
  }

  private error(message: string) {
    this.errors.push(message)
    this.log(`MockRealtime: ${message}`)
  }

  private newId(): string {
    return `mock_item_${++this.ids}`
  }

  /** A sine tone of `ms` milliseconds (PCM16 16 kHz), in chunks of at most `chunkMs`. */
  private tone(ms: number): Buffer[] {
    const samples = Math.max(1, Math.round((ms * SAMPLE_RATE) / 1000))
    const audio = Buffer.alloc(samples * 2)
    for (let i = 0; i < samples; i++, this.phase++) {
      const sample = Math.round(
        0.3 * 32767 * Math.sin((2 * Math.PI * 440 * this.phase) / SAMPLE_RATE)
      )
      audio.writeInt16LE(sample, i * 2)
    }
    this.phase %= SAMPLE_RATE
    const chunkBytes = audioBytes(this.options.chunkMs ?? 100)
    const chunks: Buffer[] = []
    for (let offset = 0; offset < audio.length; offset += chunkBytes) {
      chunks.push(audio.subarray(offset, offset + chunkBytes))
    }
    return chunks
  }
}

function usageOf(run: MockRun): { usage?: ModelUsage } {
  return run.usage ? { usage: run.usage } : {}
}

function fromOpenmic(item: MicdropConversationItem, id: string): MockRealtimeItem {
  switch (item.role) {
    case 'tool_call':
      return {
        id,
        role: item.role,
        text: item.parameters,
        source: 'text',
        callId: item.toolCallId,
        name: item.toolName,
      }
    case 'tool_result':
      return {
        id,
        role: item.role,
        text: item.output,
        source: 'text',
        callId: item.toolCallId,
        name: item.toolName,
      }
    default:
      return { id, role: item.role, text: item.content, source: 'text' }
  }
}
