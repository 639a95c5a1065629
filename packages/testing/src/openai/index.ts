export { createFakeOpenAI, FakeOpenAI } from './createFakeOpenAI.js'
export { responsesDialect } from './responses-dialect.js'
export { chatDialect } from './chat-dialect.js'
