export { listenDroppingConnections } from './connection-dropper.js'
export type { ConnectionDropper } from './connection-dropper.js'
