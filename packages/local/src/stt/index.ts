export { LocalSTT } from './LocalSTT.js'
export type { LocalSTTOptions } from './LocalSTT.js'
