export { convertToResponsesInput } from './convert-to-responses-input.js'
export { mapResponsesStream } from './map-responses-stream.js'
