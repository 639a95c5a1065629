import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import type { INestApplication } from '@nestjs/common'
import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { MemoryConversationStore } from '@openmic/server'
import { afterEach, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createApp } from '../src/app.js'

let app: INestApplication | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

async function start(wordDelayMs = 0) {
  app = await createApp({
    token: 'secret',
    store: new MemoryConversationStore(),
    drainDeadlineMs: 5000,
    createCall: () => ({
      agent: new MockAgent({
        systemPrompt: 'Be brief.',
        wordDelayMs,
        answers: (conversation) => `Item ${conversation.length} one two three four`,
      }),
      stt: new MockSTT(),
      tts: new MockTTS(),
      firstMessage: 'Hello!',
    }),
  })
  await app.listen(0, '127.0.0.1')
  const { port } = app.getHttpServer().address() as AddressInfo
  return `ws://127.0.0.1:${port}/call`
}

/**
 * A protocol client as `@openmic/client`: sends the params then `Hello` (each answer's `Message`
 * comes once heard), keeps frame names and assistant texts.
 */
async function call(url: string, params: unknown) {
  const socket = new WebSocket(url)
  const frames: string[] = []
  const answers: string[] = []
  let close: { code: number; reason: string } | undefined
  socket.on('message', (data: Buffer, isBinary) => {
    if (isBinary) return void frames.push('audio')
    const text = data.toString()
    const [name] = text.split(' ', 1)
    if (name === 'Message') {
      const item = JSON.parse(text.slice(8)) as { role: string; content: string }
      frames.push(`Message:${item.role}`)
      if (item.role === 'assistant') answers.push(item.content)
    } else if (name !== 'Caption') frames.push(name!)
  })
  socket.on('close', (code, reason) => (close = { code, reason: reason.toString() }))
  await once(socket, 'open')
  socket.send(JSON.stringify(params))
  socket.send('Hello {"captions":true}')
  const until = async (predicate: () => boolean) => {
    const deadline = Date.now() + 5000
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out; frames: ${frames.join(', ')}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  return {
    socket,
    frames,
    answers,
    until,
    closed: () => close,
    utterance() {
      socket.send('StartSpeaking')
      socket.send(Buffer.alloc(3200, 1), { binary: true })
      socket.send('StopSpeaking')
    },
  }
}

it('runs a call through the Nest gateway: greeting, then an answer to each turn', async () => {
  const url = await start()
  const client = await call(url, { token: 'secret' })
  await client.until(() => client.answers.length === 1)
  client.utterance()
  await client.until(() => client.answers.length === 2)
  expect(client.answers).toEqual(['Hello!', 'Item 3 one two three four'])
  expect(client.frames).toContain('Message:user')
  expect(client.frames).toContain('audio')
})

it('refuses a wrong token (4401) and invalid params (4400)', async () => {
  const url = await start()
  const wrong = await call(url, { token: 'nope' })
  await wrong.until(() => wrong.closed() !== undefined)
  expect(wrong.closed()).toEqual({ code: 4401, reason: 'Invalid token' })
  const invalid = await call(url, { token: 'secret', conversationId: 'a b/c' })
  await invalid.until(() => invalid.closed() !== undefined)
  expect(invalid.closed()?.code).toBe(4400)
})

it('resumes a conversation by its id', async () => {
  const url = await start()
  const first = await call(url, { token: 'secret', conversationId: 'c-1' })
  await first.until(() => first.answers.length === 1)
  first.utterance()
  await first.until(() => first.answers.length === 2)
  first.socket.terminate()
  const second = await call(url, { token: 'secret', conversationId: 'c-1' })
  await second.until(() => second.frames.includes('SkipAnswer'))
  second.utterance()
  await second.until(() => second.answers.length === 1)
  expect(second.answers).toEqual(['Item 5 one two three four'])
})

it('closing the app drains the calls: the answer in progress ends, then 1012', async () => {
  const url = await start(40)
  const client = await call(url, { token: 'secret', conversationId: 'c-2' })
  await client.until(() => client.answers.length === 1)
  client.utterance()
  await client.until(() => client.frames.filter((f) => f === 'Message:user').length === 1)
  const closing = app!.close()
  app = undefined
  await closing
  await client.until(() => client.closed() !== undefined)
  expect(client.answers).toEqual(['Hello!', 'Item 3 one two three four'])
  expect(client.closed()).toEqual({ code: 1012, reason: 'Service restart' })
})
