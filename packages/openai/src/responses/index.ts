export { convertToResponsesInput } from './convert-to-responses-input.js'
export { mapResponsesEvent } from './map-responses-event.js'
