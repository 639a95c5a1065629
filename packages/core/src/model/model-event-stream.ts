import type { ModelStreamPart } from './types.js'

/** Hands one part to whoever consumes the stream. */
export type EmitPart = (part: ModelStreamPart) => void

/**
 * Turns a provider's stream events into model parts, synchronously. One per model call: it may
 * keep state across events (e.g. tool-call pieces being assembled).
 */
export interface ModelEventMapper<Event> {
  /** Emits the parts of one event, in order (none for most bookkeeping events). May throw. */
  map(event: Event, emit: EmitPart): void
  /** Emits the parts known once the stream has ended (e.g. assembled tool calls). May throw. */
  finish?(emit: EmitPart): void
}

/**
 * A model call's parts as a provider's events mapped one by one: what a {@link ModelCall} should
 * return when it wraps an SDK stream. It is an `AsyncIterable` of parts like any other, and the
 * step loop reads it through {@link ModelEventStream.forEachPart} instead: each event is mapped
 * and consumed in the same turn, with no extra async step (promise and generator resumption) per
 * part, which on a 200-delta answer costs more than everything else openmic does.
 */
export class ModelEventStream<Event> implements AsyncIterable<ModelStreamPart> {
  /**
   * @param events The SDK's stream, or the pending request that opens it.
   * @param mapper Maps each event onto parts.
   * @param mapError Turns whatever the request, the stream or the mapper throws into the error the
   *   model call fails with (e.g. one that keeps the HTTP status).
   */
  constructor(
    private readonly events: AsyncIterable<Event> | Promise<AsyncIterable<Event>>,
    private readonly mapper: ModelEventMapper<Event>,
    private readonly mapError: (error: unknown) => unknown = (error) => error
  ) {}

  /**
   * Emits each part as soon as its event arrives, until the stream ends (resolves) or fails
   * (rejects). Stops reading, and returns, once `stopped()` is true after an event.
   */
  async forEachPart(emit: EmitPart, stopped: () => boolean): Promise<void> {
    try {
      for await (const event of await this.events) {
        this.mapper.map(event, emit)
        if (stopped()) return
      }
      this.mapper.finish?.(emit)
    } catch (error) {
      throw this.mapError(error)
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ModelStreamPart> {
    const parts: ModelStreamPart[] = []
    const collect: EmitPart = (part) => {
      parts.push(part)
    }
    try {
      for await (const event of await this.events) {
        this.mapper.map(event, collect)
        yield* parts.splice(0)
      }
      this.mapper.finish?.(collect)
    } catch (error) {
      throw this.mapError(error)
    }
    yield* parts
  }
}
