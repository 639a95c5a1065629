export * from './agent-vs-raw.js'
