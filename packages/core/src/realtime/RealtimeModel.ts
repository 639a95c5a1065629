import { EventEmitter } from 'eventemitter3'
import type { MicdropConversationItem } from '../conversation/types.js'
import type { Logger } from '../logger/Logger.js'
import { defaultProviderName } from '../telemetry/provider-name.js'
import type { RealtimeInput } from './RealtimeInput.js'
import type { RealtimeResponse, RealtimeResponseOwner } from './RealtimeResponse.js'
import type { RealtimeRespondOptions, RealtimeSessionConfig } from './types.js'

export interface RealtimeModelEvents {
  /**
   * The session failed and is over (refused, dropped, its configuration rejected, an error the
   * provider reported outside any response): a `ProviderError`. The next call of any method opens
   * a new session (its {@link RealtimeModel.session} differs).
   */
  Failed: [error: unknown]
}

/**
 * A speech-to-speech model's session, as a provider exposes it: the contract a provider package
 * implements (`OpenaiRealtime` in `@openmic/openai`). Applications do not drive it themselves:
 * a {@link RealtimeAgent} does, and serves a call as the agent, STT and TTS that the server's turn
 * rules already drive.
 *
 * The contract every provider meets (`describeRealtimeConformance` in `@openmic/testing` checks it):
 * - Audio in and out is PCM16 16 kHz mono, openmic's format; the provider resamples to its own.
 * - `configure()` opens the session if none is open (before anything is asked, so the first turn
 *   does not wait for a handshake), and may be called again (the tools changed). Turns are the
 *   client's: the provider's own voice activity detection stays off; the model answers only when
 *   asked (`respond()`).
 * - `appendAudio()` adds the user's audio to the input; `commitAudio()` makes what was appended an
 *   item of the conversation, transcribed ({@link RealtimeInput}); a commit of (almost) no audio is
 *   transcribed `''` without failing.
 * - `respond()` and `say()` may be called while a response is active: the new one starts once the
 *   active one ended (cancel it first if it should not finish). A response's output comes in order,
 *   nothing after `cancel()`, and one `Done`.
 * - Items created with `createItem()` take the id given, placed after `after` (`null`: first;
 *   undefined: last). `truncateItem()` cuts a spoken item's audio (and its transcript) at a
 *   position; `deleteItem()` removes an item. Ids are the provider's own for the items it made.
 * - Nothing is emitted from within the call that asked for it (`respond()`, `say()`,
 *   `commitAudio()`): listeners attached right after the call see every event.
 * - Failures are `ProviderError`s: a response's own end with `failed`, an input's `Failed`, the
 *   session's `Failed`. Nothing is thrown out of an event handler or left unhandled.
 * - `destroy()` closes the session and every timer; nothing is emitted afterwards.
 */
export abstract class RealtimeModel
  extends EventEmitter<RealtimeModelEvents>
  implements RealtimeResponseOwner
{
  public logger?: Logger

  /**
   * Who provides the model, for tracing: each provider package says its own (`openai`); by default
   * the class name without `Realtime`, in snake case. The agent, STT and TTS it serves say it too.
   */
  get providerName(): string {
    return defaultProviderName(this, 'Realtime')
  }

  /**
   * Names the provider's session in use: it changes when a new session replaces the last one
   * (after a drop, or a fallback's switch), whose conversation is then gone. Empty before any.
   */
  abstract get session(): string

  /** Opens the session if needed and (re)configures it. */
  abstract configure(config: RealtimeSessionConfig): void

  /** Appends user audio (PCM16 16 kHz mono) to the input. */
  abstract appendAudio(audio: Buffer): void

  /** Makes the audio appended since the last commit a user item; returns its handle. */
  abstract commitAudio(): RealtimeInput

  /** Drops the audio appended since the last commit. */
  abstract clearAudio(): void

  /** Asks the model to answer the conversation as it is. */
  abstract respond(options?: RealtimeRespondOptions): RealtimeResponse

  /**
   * Has the model say `text` aloud, word for word, in its own voice, without adding anything to
   * the conversation (the caller records what it wants of it).
   */
  abstract say(text: string): RealtimeResponse

  /** Stops a response (what `response.cancel()` calls). */
  abstract cancelResponse(response: RealtimeResponse): void

  /** Adds an item of openmic's conversation to the session's, with the id given. */
  abstract createItem(
    item: MicdropConversationItem,
    placement: { id: string; after?: string | null }
  ): void

  /** Removes an item from the session's conversation. */
  abstract deleteItem(id: string): void

  /** Cuts a spoken item at `audioEndMs` of its audio: the model forgets what was not heard. */
  abstract truncateItem(id: string, audioEndMs: number): void

  protected log(...message: unknown[]): void {
    this.logger?.log(...message)
  }

  /** Closes the session; nothing is emitted afterwards. */
  destroy(): void {
    this.removeAllListeners()
  }
}
