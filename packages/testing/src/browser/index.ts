export { CHROMIUM_PATH, hasChromium, chromiumArgs } from './chromium.js'
export type { ChromiumArgsOptions } from './chromium.js'
export { encodeWav, silencePcm } from './wav.js'
