import type { FallbackSwitch } from '../telemetry/reports.js'

/** The providers of a fallback, in order of preference: the one in use, and how to move on. */
export class ProviderChain<P extends { destroy(): void; readonly providerName: string }> {
  private index = 0
  private provider: P

  /**
   * @param kind - Named in errors (`FallbackSTT needs at least one factory`).
   * @param factories - Build the providers; each is built when first needed.
   * @param wire - Called with each provider once built, to listen to its events.
   */
  constructor(
    kind: string,
    private readonly factories: Array<() => P>,
    private readonly wire: (provider: P) => void
  ) {
    if (factories.length === 0) throw new Error(`${kind} needs at least one factory`)
    this.provider = this.build()
  }

  /** The provider in use. */
  get active(): P {
    return this.provider
  }

  /** Its place in the chain (0 for the first). */
  get position(): number {
    return this.index
  }

  /** Whether a provider is left after the one in use. */
  get hasNext(): boolean {
    return this.index + 1 < this.factories.length
  }

  /**
   * The active provider failed with `error`: builds the next one, makes it the active one, destroys
   * the previous, and tells what was switched (for the fallback's `Fallback` event).
   */
  advance(error: unknown): FallbackSwitch {
    const previous = this.provider
    this.index++
    this.provider = this.build()
    previous.destroy()
    return { from: previous.providerName, to: this.provider.providerName, error }
  }

  private build(): P {
    const provider = this.factories[this.index]!()
    this.wire(provider)
    return provider
  }
}
