export { freePort } from './free-port.js'
export { requireCommand, startProcess, type TestProcess } from './child-process.js'
export {
  startRedisServer,
  type StartRedisServerOptions,
  type TestRedisServer,
} from './redis-server.js'
export {
  startPrometheusServer,
  type StartPrometheusServerOptions,
  type TestPrometheusServer,
} from './prometheus-server.js'
