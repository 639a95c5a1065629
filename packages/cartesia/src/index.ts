export * from './tts/index.js'
export * from './stt/index.js'
