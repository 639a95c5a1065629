export { FirstTokenTimeoutError, AllAgentsFailedError } from './errors.js'
