export { waitForParams } from './waitForParams.js'
export type { WaitForParamsOptions } from './waitForParams.js'
