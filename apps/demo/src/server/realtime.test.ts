import type { AddressInfo } from 'node:net'
import { createFakeOpenaiRealtime, type FakeOpenaiRealtime } from '@openmic/testing'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { buildApp } from './app.js'
import { loadConfig } from './config.js'

let app: FastifyInstance | undefined
let fake: FakeOpenaiRealtime | undefined

afterEach(async () => {
  await app?.close()
  await fake?.close()
  app = fake = undefined
})

describe('the demo with OPENMIC_REALTIME=openai', () => {
  it('a call greets and answers through OpenaiRealtime: one session, the page frames as ever', async () => {
    fake = await createFakeOpenaiRealtime({ apiKey: 'sk-demo' })
    fake.replyResponse('Hello, how can I help?', { msPerChar: 5 }) // the greeting
    fake.replyTranscript('What time is it?')
    fake.replyResponse('It is noon.', { msPerChar: 5 })
    app = await buildApp(
      loadConfig({
        OPENMIC_REALTIME: 'openai',
        OPENAI_API_KEY: 'sk-demo',
        OPENAI_BASE_URL: fake.baseURL,
        OPENAI_REALTIME_MODEL: 'gpt-realtime-mini',
      })
    )
    await app.listen({ host: '127.0.0.1', port: 0 })
    const base = `127.0.0.1:${(app.server.address() as AddressInfo).port}`
    expect(await (await fetch(`http://${base}/config.json`)).json()).toMatchObject({
      realtime: 'openai',
    })
    const socket = new WebSocket(`ws://${base}/call`)
    const frames: string[] = []
    socket.on('message', (data, isBinary) => frames.push(isBinary ? 'audio' : data.toString()))
    await new Promise((resolve) => socket.once('open', resolve))
    socket.send(JSON.stringify({ token: 'demo' }))
    const assistant = () =>
      frames.filter((frame) => frame.startsWith('Message {"role":"assistant"'))
    const until = async (done: () => boolean) => {
      const end = Date.now() + 5000
      while (!done()) {
        if (Date.now() > end) throw new Error(`timed out; frames: ${frames.join(', ')}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }
    await until(() => assistant().length === 1)
    socket.send('StartSpeaking')
    for (let i = 0; i < 5; i++) socket.send(Buffer.alloc(3200, 9))
    socket.send('StopSpeaking')
    await until(() => assistant().length === 2)
    socket.close()
    expect(assistant()[1]).toContain('It is noon.')
    expect(fake.handshakes.map((handshake) => handshake.url)).toEqual([
      '/v1/realtime?model=gpt-realtime-mini',
    ])
    // The greeting is the model's own answer to the system prompt, asked without tools
    expect(fake.responses[0]!.body).toMatchObject({ tool_choice: 'none' })
    expect(fake.sessionUpdates[0]).toMatchObject({
      tools: [expect.objectContaining({ name: 'end_call' })],
    })
  })
})
