export { listenDroppingConnections } from './connection-dropper.js'
export type { ConnectionDropper } from './connection-dropper.js'
export type { SocketStep } from './socket-steps.js'
export type { UpgradeRejection } from './websocket-fake-server.js'
