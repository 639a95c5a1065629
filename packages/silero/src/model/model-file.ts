import { createRequire } from 'node:module'

/**
 * The Silero VAD v5 model (MIT, snakers4/silero-vad) as shipped in `@ricky0123/vad-web`'s dist:
 * installed with the package from the npm registry, so nothing is fetched at run time.
 */
const MODEL_SPECIFIER = '@ricky0123/vad-web/dist/silero_vad_v5.onnx'

/** Absolute path of the installed model file. Throws when `@ricky0123/vad-web` is missing. */
export function modelFile(): string {
  return createRequire(import.meta.url).resolve(MODEL_SPECIFIER)
}
