export * from './agent-vs-raw.js'
export * from './tts-gaps.js'
