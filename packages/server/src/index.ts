export * from './server/index.js'
export * from './errors/index.js'
export * from './params/index.js'
export * from './answer/index.js'
