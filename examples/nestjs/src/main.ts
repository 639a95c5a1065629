import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { createApp } from './app.js'

// Replace the mocks with your providers (OpenaiAgent, OpenaiSTT, OpenaiTTS...).
const app = await createApp({
  token: process.env.CALL_TOKEN ?? 'demo',
  createCall: () => ({
    agent: new MockAgent({ systemPrompt: 'You are a helpful assistant.' }),
    stt: new MockSTT(),
    tts: new MockTTS(),
    firstMessage: 'Hello!',
  }),
})
// SIGTERM: Nest calls beforeApplicationShutdown, which drains the calls.
app.enableShutdownHooks()
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1')
console.log(`NestJS voice gateway on ws://127.0.0.1:${process.env.PORT ?? 3000}/call`)
