export { createFakeMistral, FakeMistral } from './createFakeMistral.js'
export { mistralDialect, mistralRejection } from './mistral-dialect.js'
export { mistralRequestProblem } from './validate-request.js'
