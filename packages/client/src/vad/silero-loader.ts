/** The part of `@ricky0123/vad-web`'s MicVAD that {@link SileroVAD} uses. */
export interface MicVADLike {
  start(): Promise<void>
  pause(): Promise<void>
  destroy(): Promise<void>
}

/** `@ricky0123/vad-web`'s `MicVAD` class (its static `new`). */
export interface MicVADFactory {
  new: (options: any) => Promise<MicVADLike>
}

let factory: MicVADFactory | undefined

/**
 * Gives {@link SileroVAD} the Silero runtime. `import '@openmic/client/silero'` does it; the main
 * entry never imports `@ricky0123/vad-web`, so apps without Silero build without it.
 */
export function registerSileroVAD(micVAD: MicVADFactory): void {
  factory = micVAD
}

export function getSileroFactory(): MicVADFactory {
  if (!factory) {
    throw new Error(
      "SileroVAD needs its runtime: add `import '@openmic/client/silero'` (and install @ricky0123/vad-web)"
    )
  }
  return factory
}
