import { pcmTone } from '../openai-speech/tone.js'
import {
  argumentsDelta,
  argumentsDone,
  audioDelta,
  audioDone,
  contentPartAdded,
  contentPartDone,
  itemAdded,
  itemDeleted,
  itemTruncated,
  outputItemAdded,
  outputItemDone,
  responseCreated,
  responseDone,
  transcriptDelta,
  transcriptDone,
  type ResponseShape,
} from './response-events.js'
import type { FakeRealtimeItem, FakeRealtimeResponseRecord, FakeResponseStep } from './types.js'
import { errorEvent } from './wire-events.js'

/** What a conversation needs from its connection and server. */
export interface FakeConversationHost {
  send(event: unknown): void
  close(code?: number, reason?: string): void
  reset(): void
  /** The next scripted response (one per `response.create`, whatever the connection). */
  nextResponse(): FakeResponseStep[] | undefined
  /** Records a `response.create`; the record is updated as the response goes. */
  recordResponse(record: Omit<FakeRealtimeResponseRecord, 'connection'>): FakeRealtimeResponseRecord
  /** A new id for an item or a response. */
  newId(prefix: 'item' | 'resp' | 'call'): string
}

/** The response being played. */
interface Playing {
  shape: ResponseShape
  record: FakeRealtimeResponseRecord
  steps: FakeResponseStep[]
  timer?: NodeJS.Timeout
  /** The spoken item being produced, with its output index. */
  spoken?: { item: FakeRealtimeItem; index: number }
}

const DEFAULT_CHUNK_MS = 100

/**
 * The conversation of one fake session: items (created, deleted, truncated, from committed user
 * audio and the model's responses) and scripted responses, one at a time, as the Realtime API
 * plays them, with its errors for what it refuses.
 */
export class FakeConversation {
  readonly items: FakeRealtimeItem[] = []
  private playing?: Playing

  constructor(private readonly host: FakeConversationHost) {}

  /** The user's committed audio became a user item. */
  addUserAudio(itemId: string, audioMs: number): FakeRealtimeItem {
    const item: FakeRealtimeItem = {
      id: itemId,
      type: 'message',
      role: 'user',
      text: '',
      source: 'audio',
      audioMs,
      status: 'completed',
    }
    this.items.push(item)
    return item
  }

  /** Plays a client event of a conversation session; false if it is none. */
  handle(event: any, clientEventId: string | null): boolean {
    switch (event?.type) {
      case 'conversation.item.create':
        this.create(event, clientEventId)
        return true
      case 'conversation.item.delete':
        this.delete(event, clientEventId)
        return true
      case 'conversation.item.truncate':
        this.truncate(event, clientEventId)
        return true
      case 'response.create':
        this.respond(event, clientEventId)
        return true
      case 'response.cancel':
        this.cancel(event, clientEventId)
        return true
      default:
        return false
    }
  }

  /** The user's words of a committed item were transcribed. */
  transcribed(itemId: string, transcript: string): void {
    const item = this.find(itemId)
    if (item) item.text = transcript
  }

  /** `conversation.item.create` */
  private create(event: any, clientEventId: string | null): void {
    const item = event?.item
    const id: string = typeof item?.id === 'string' ? item.id : this.host.newId('item')
    if (this.find(id)) {
      return this.refuse(`Item with id '${id}' already exists.`, 'invalid_value', clientEventId)
    }
    const created = this.fromClient(item, id)
    if (!created) {
      return this.refuse(
        `Invalid item type: '${String(item?.type)}'.`,
        'invalid_value',
        clientEventId
      )
    }
    const previous: unknown = event.previous_item_id
    let index = this.items.length
    if (previous === 'root') index = 0
    else if (typeof previous === 'string') {
      const at = this.items.findIndex((known) => known.id === previous)
      if (at === -1) {
        return this.refuse(
          `Previous item with item_id '${previous}' not found.`,
          'item_not_found',
          clientEventId
        )
      }
      index = at + 1
    }
    this.items.splice(index, 0, created)
    this.host.send(itemAdded(this.wire(created), index === 0 ? null : this.items[index - 1]!.id))
  }

  /** `conversation.item.delete` */
  private delete(event: any, clientEventId: string | null): void {
    const index = this.items.findIndex((item) => item.id === event?.item_id)
    if (index === -1) {
      const message = `Item with item_id '${String(event?.item_id)}' not found.`
      return this.refuse(message, 'item_not_found', clientEventId)
    }
    this.items.splice(index, 1)
    this.host.send(itemDeleted(event.item_id))
  }

  /** `conversation.item.truncate` */
  private truncate(event: any, clientEventId: string | null): void {
    const item = this.find(event?.item_id)
    if (!item || item.role !== 'assistant' || item.audioMs === undefined) {
      const message = `Item with item_id '${String(event?.item_id)}' not found or has no audio.`
      return this.refuse(message, 'item_not_found', clientEventId)
    }
    const endMs = event.audio_end_ms
    if (typeof endMs !== 'number' || endMs < 0 || event.content_index !== 0) {
      return this.refuse('Invalid audio_end_ms or content_index.', 'invalid_value', clientEventId)
    }
    if (endMs > item.audioMs) {
      const message = `Audio content of ${item.audioMs}ms is already shorter than ${endMs}ms`
      return this.refuse(message, 'invalid_value', clientEventId)
    }
    // As the API: the transcript of what was cut is dropped with the audio
    item.text = item.text.slice(
      0,
      Math.round((item.text.length * endMs) / Math.max(item.audioMs, 1))
    )
    item.audioMs = endMs
    item.truncatedAtMs = endMs
    this.host.send(itemTruncated(item.id, endMs))
  }

  /** `response.create` */
  private respond(event: any, clientEventId: string | null): void {
    const body = event?.response as Record<string, unknown> | undefined
    const inConversation = body?.conversation !== 'none'
    const record = this.host.recordResponse({
      body,
      conversation: inConversation ? this.items.map((item) => ({ ...item })) : [],
    })
    if (this.playing) {
      const message = `Conversation already has an active response in progress: ${this.playing.shape.id}. Wait until the response is finished before creating a new one.`
      return this.refuse(message, 'conversation_already_has_active_response', clientEventId)
    }
    const steps = this.host.nextResponse()
    if (!steps) {
      return this.refuse(
        'Fake server: no scripted response left.',
        'fake_server_no_script',
        clientEventId
      )
    }
    const shape: ResponseShape = {
      id: this.host.newId('resp'),
      status: 'in_progress',
      output: [],
      metadata: body?.metadata ?? null,
      inConversation,
    }
    record.id = shape.id
    this.playing = { shape, record, steps: [...steps] }
    this.host.send(responseCreated(shape))
    this.play(this.playing)
  }

  /** `response.cancel` */
  private cancel(event: any, clientEventId: string | null): void {
    const playing = this.playing
    const wanted = event?.response_id
    if (!playing || (typeof wanted === 'string' && wanted !== playing.shape.id)) {
      return this.refuse(
        'Cancellation failed: no active response found.',
        'response_cancel_not_active',
        clientEventId
      )
    }
    this.finish(playing, 'cancelled', { type: 'cancelled', reason: 'client_cancelled' })
  }

  /** Stops everything (the connection closed). */
  stop(): void {
    clearTimeout(this.playing?.timer)
    this.playing = undefined
  }

  private play(playing: Playing): void {
    while (this.playing === playing) {
      const step = playing.steps.shift()
      if (!step) return this.finish(playing, 'completed')
      switch (step.type) {
        case 'delay':
          playing.timer = setTimeout(() => {
            playing.timer = undefined
            this.play(playing)
          }, step.ms)
          return
        case 'stall':
          return
        case 'usage':
          playing.shape.usage = step.usage
          break
        case 'audio':
          this.speak(playing, step.ms, step.chunkMs ?? DEFAULT_CHUNK_MS)
          break
        case 'transcript': {
          const { item, index } = this.spoken(playing)
          item.text += step.delta
          this.host.send(transcriptDelta(playing.shape.id, item.id, index, step.delta))
          break
        }
        case 'function_call':
          this.call(playing, step)
          break
        case 'fail':
          return this.finish(playing, 'failed', {
            type: 'failed',
            error: {
              type: 'server_error',
              code: step.code ?? 'server_error',
              message: step.message,
            },
          })
        case 'error':
          this.host.send(errorEvent(step.message, { code: step.code, type: step.errorType }))
          break
        case 'event':
          this.host.send(step.data)
          break
        case 'close':
          return this.host.close(step.code, step.reason)
        case 'reset':
          return this.host.reset()
      }
    }
  }

  /** Audio of the spoken item, in chunks of at most `chunkMs`. */
  private speak(playing: Playing, ms: number, chunkMs: number) {
    const { item, index } = this.spoken(playing)
    for (let sent = 0; sent < ms; sent += chunkMs) {
      const chunk = Math.min(chunkMs, ms - sent)
      item.audioMs! += chunk
      this.host.send(audioDelta(playing.shape.id, item.id, index, pcmTone(chunk)))
    }
  }

  /** The response's spoken item, opened at its first audio or transcript. */
  private spoken(playing: Playing): { item: FakeRealtimeItem; index: number } {
    if (playing.spoken) return playing.spoken
    const item: FakeRealtimeItem = {
      id: this.host.newId('item'),
      type: 'message',
      role: 'assistant',
      text: '',
      source: 'speech',
      audioMs: 0,
      status: 'in_progress',
    }
    const index = this.open(playing, item)
    playing.spoken = { item, index }
    this.host.send(contentPartAdded(playing.shape.id, item.id, index))
    return playing.spoken
  }

  private call(playing: Playing, step: Extract<FakeResponseStep, { type: 'function_call' }>) {
    this.closeSpoken(playing, 'completed')
    const call = {
      callId: step.callId ?? this.host.newId('call'),
      name: step.name,
      arguments: step.arguments,
    }
    const item: FakeRealtimeItem = {
      id: this.host.newId('item'),
      type: 'function_call',
      text: call.arguments,
      source: 'speech',
      callId: call.callId,
      name: call.name,
      status: 'in_progress',
    }
    const index = this.open(playing, item)
    const { id } = playing.shape
    this.host.send(argumentsDelta(id, item.id, index, call.callId, call.arguments))
    this.host.send(argumentsDone(id, item.id, index, call))
    item.status = 'completed'
    this.host.send(outputItemDone(id, index, this.wire(item)))
  }

  /** A new output item of the response (in the conversation too, unless out-of-band). */
  private open(playing: Playing, item: FakeRealtimeItem): number {
    const index = playing.shape.output.length
    playing.shape.output.push(this.wire(item))
    if (playing.shape.inConversation) this.items.push(item)
    this.host.send(outputItemAdded(playing.shape.id, index, this.wire(item)))
    return index
  }

  private closeSpoken(playing: Playing, status: 'completed' | 'incomplete') {
    const spoken = playing.spoken
    if (!spoken) return
    playing.spoken = undefined
    const { item, index } = spoken
    const { id } = playing.shape
    item.status = status
    this.host.send(audioDone(id, item.id, index))
    this.host.send(transcriptDone(id, item.id, index, item.text))
    this.host.send(contentPartDone(id, item.id, index, item.text))
    playing.shape.output[index] = this.wire(item)
    this.host.send(outputItemDone(id, index, this.wire(item)))
  }

  private finish(
    playing: Playing,
    status: 'completed' | 'cancelled' | 'failed',
    details?: Record<string, unknown>
  ) {
    clearTimeout(playing.timer)
    this.closeSpoken(playing, status === 'completed' ? 'completed' : 'incomplete')
    this.playing = undefined
    playing.shape.status = status
    playing.shape.statusDetails = details ?? null
    playing.record.status = status
    this.host.send(responseDone(playing.shape))
  }

  private refuse(message: string, code: string, clientEventId: string | null) {
    this.host.send(errorEvent(message, { code, clientEventId }))
  }

  private find(id: unknown): FakeRealtimeItem | undefined {
    return this.items.find((item) => item.id === id)
  }

  /** An item as the client sent it, or undefined when the fake does not know its type. */
  private fromClient(item: any, id: string): FakeRealtimeItem | undefined {
    const base = { id, source: 'created' as const, status: 'completed' as const }
    switch (item?.type) {
      case 'message': {
        const text = (Array.isArray(item.content) ? item.content : [])
          .map((part: any) => part?.text ?? part?.transcript ?? '')
          .join('')
        return { ...base, type: 'message', role: item.role, text }
      }
      case 'function_call':
        return {
          ...base,
          type: 'function_call',
          text: String(item.arguments ?? ''),
          callId: item.call_id,
          name: item.name,
        }
      case 'function_call_output':
        return {
          ...base,
          type: 'function_call_output',
          text: String(item.output ?? ''),
          callId: item.call_id,
        }
      default:
        return undefined
    }
  }

  /** An item in the API's shape. */
  private wire(item: FakeRealtimeItem): Record<string, unknown> {
    const common = { id: item.id, object: 'realtime.item', status: item.status }
    switch (item.type) {
      case 'function_call':
        return {
          ...common,
          type: 'function_call',
          call_id: item.callId,
          name: item.name,
          arguments: item.text,
        }
      case 'function_call_output':
        return { ...common, type: 'function_call_output', call_id: item.callId, output: item.text }
      default: {
        const spoken = item.source === 'speech'
        const content = spoken
          ? [{ type: 'output_audio', transcript: item.text }]
          : [{ type: item.role === 'assistant' ? 'output_text' : 'input_text', text: item.text }]
        return { ...common, type: 'message', role: item.role, content }
      }
    }
  }
}
