export { OpenaiStreamError } from './OpenaiStreamError.js'
export { toOpenaiError } from './to-openai-error.js'
