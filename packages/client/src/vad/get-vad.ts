import { MultipleVAD } from './MultipleVAD.js'
import { SileroVAD } from './SileroVAD.js'
import type { VAD } from './VAD.js'
import { VolumeVAD } from './VolumeVAD.js'

/** A VAD by name, an instance, or several of them combined (see {@link MultipleVAD}). */
export type VADConfigName = 'volume' | 'silero'
export type VADConfig = VADConfigName | VAD | Array<VADConfigName | VAD>

/** Builds the VAD a config describes (default: a {@link VolumeVAD}). */
export function getVAD(config: VADConfig = 'volume'): VAD {
  if (Array.isArray(config)) {
    const vads = config.map((item) => getVAD(item))
    return vads.length === 1 ? vads[0]! : new MultipleVAD(vads)
  }
  if (config === 'volume') return new VolumeVAD()
  if (config === 'silero') return new SileroVAD()
  return config
}
