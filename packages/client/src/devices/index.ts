export type { MicdropStorage } from './storage.js'
export { listDevices } from './list-devices.js'
