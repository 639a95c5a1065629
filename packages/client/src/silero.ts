// `import '@openmic/client/silero'`: loads @ricky0123/vad-web and hands it to SileroVAD. Import it
// in browser code only (the main entry stays free of it, so apps without Silero never bundle it).
import { MicVAD } from '@ricky0123/vad-web'
import { registerSileroVAD } from './vad/silero-loader.js'

registerSileroVAD(MicVAD)

export { SileroVAD } from './vad/SileroVAD.js'
export type { SileroVADOptions } from './vad/SileroVAD.js'
