export * from './sse-server/index.js'
export * from './openai/index.js'
export * from './fixtures/index.js'
export * from './mistral/index.js'
