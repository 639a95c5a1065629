import websocket from '@fastify/websocket'
import { MockAgent, MockSTT, MockTTS, type MicdropConversationItem } from '@openmic/core'
import Fastify from 'fastify'
import { afterEach, expect, it } from 'vitest'
import { MicdropServer, handleError, waitForParams } from '../src/index.js'
import { finalItems, TestClient, until } from './harness.js'

let app: ReturnType<typeof Fastify> | undefined
let kept: MicdropConversationItem[] = []
afterEach(async () => {
  await app?.close()
  app = undefined
})

it('runs a call behind Fastify and @fastify/websocket, with auth', async () => {
  const server = Fastify()
  app = server
  await server.register(websocket, { options: { maxPayload: 1 << 20 } })
  server.get('/call', { websocket: true }, async (socket) => {
    try {
      const params = await waitForParams(socket, (p: { token?: string }) => {
        if (p.token !== 'secret') throw new Error('bad token')
        return p
      })
      const call = new MicdropServer(socket, {
        agent: new MockAgent({ answers: ['Hi from Fastify'] }),
        stt: new MockSTT({ utterances: [`token ${params.token}`] }),
        tts: new MockTTS(),
        firstMessage: 'Welcome',
      })
      kept = finalItems(call)
    } catch (error) {
      handleError(socket, error)
    }
  })
  const address = await server.listen({ host: '127.0.0.1', port: 0 })
  const url = address.replace('http', 'ws') + '/call'

  const client = await TestClient.connect(url)
  client.send(JSON.stringify({ token: 'secret' }))
  await until(() => kept.length === 1) // the greeting was heard
  client.utterance()
  await client.waitFor((c) => c.count('Message:assistant') === 2)
  await client.settle()
  // A Micdrop client: each answer's text as it starts playing, among its audio
  expect(client.log.filter((entry) => entry !== 'audio')).toEqual([
    'Message:assistant',
    'Message:user',
    'Message:assistant',
  ])
  expect(client.flow.slice(0, 4)).toEqual(['audio', 'Message:assistant', 'Message:user', 'audio'])
  expect(client.texts('Message')[2]).toEqual({
    type: 'Message',
    item: { role: 'assistant', content: 'Hi from Fastify' },
  })

  const intruder = await TestClient.connect(url)
  intruder.send(JSON.stringify({ token: 'nope' }))
  await intruder.waitForClose()
  expect(intruder.closeCode).toBe(4400)
})
