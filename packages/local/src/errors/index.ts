export { LocalSetupError } from './LocalSetupError.js'
