export type { ExtractOptions, ExtractJsonOptions, ExtractTagOptions } from './types.js'
export { extractValue } from './extract-value.js'
export type { ExtractedValue } from './extract-value.js'
export { AnswerWriter } from './AnswerWriter.js'
