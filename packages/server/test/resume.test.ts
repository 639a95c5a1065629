import {
  MockAgent,
  MockSTT,
  MockTTS,
  type MicdropConversation,
  type MicdropConversationItem,
} from '@openmic/core'
import { expect, it } from 'vitest'
import {
  MicdropError,
  MicdropErrorCode,
  MicdropServer,
  handleError,
  waitForParams,
} from '../src/index.js'
import { closeAfterEach, TestClient, startServer, until } from './harness.js'

// The recipe from the README: persist every item on `Message`; on reconnect, rebuild the agent
// from the stored items and answer a last user message that never got its answer.
const SYSTEM_PROMPT = 'You are a patient assistant.'
const store = new Map<string, MicdropConversationItem[]>()

function resumeServer(agentOptions: ConstructorParameters<typeof MockAgent>[0] = {}) {
  return startServer(async (socket) => {
    try {
      const { conversationId } = await waitForParams(socket, (p: { conversationId?: string }) => {
        if (typeof p.conversationId !== 'string') throw new Error('conversationId is required')
        return { conversationId: p.conversationId }
      })
      const items = store.get(conversationId)
      if (!items) throw new MicdropError(MicdropErrorCode.NotFound, 'Unknown conversation')
      const agent = new MockAgent({ systemPrompt: SYSTEM_PROMPT, ...agentOptions })
      agent.conversation = [{ role: 'system', content: SYSTEM_PROMPT }, ...items]
      const server = new MicdropServer(socket, {
        agent,
        stt: new MockSTT({ utterances: (index) => `Utterance ${items.length}.${index}` }),
        tts: new MockTTS(),
        firstMessage: items.length === 0 ? 'Hello!' : undefined,
        generateFirstMessage: items.at(-1)?.role === 'user',
      })
      server.on('Message', (item) => items.push(item))
    } catch (error) {
      handleError(socket, error)
    }
  })
}

const cleanup = closeAfterEach()

it('saves every item and resumes: the unanswered last user message is answered first', async () => {
  store.set('c1', [])
  const slow = await resumeServer({ firstWordDelayMs: 300 })
  cleanup.stop = slow.close
  const first = await TestClient.connect(slow.url)
  first.send(JSON.stringify({ conversationId: 'c1' }))
  await until(() => store.get('c1')!.length === 1) // the greeting was heard
  first.utterance()
  await first.waitFor((c) => c.count('Message:user') === 1)
  first.socket.terminate() // gone before the answer
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(store.get('c1')!.map((item) => item.role)).toEqual(['assistant', 'user'])
  await cleanup.stop()

  let answered: MicdropConversation | undefined
  const resumed = await resumeServer({
    answers: (conversation) => {
      answered = [...conversation]
      return 'Sorry, you were saying?'
    },
  })
  cleanup.stop = resumed.close
  const second = await TestClient.connect(resumed.url)
  second.send(JSON.stringify({ conversationId: 'c1' }))
  await second.waitFor((c) => c.count('Message:assistant') === 1)
  await until(() => store.get('c1')!.length === 3) // heard: the app persists it
  expect(second.flow).toEqual(['audio', 'Message:assistant'])
  expect(answered!.map((item) => item.role)).toEqual(['system', 'assistant', 'user'])
  expect(store.get('c1')!.map((item) => item.role)).toEqual(['assistant', 'user', 'assistant'])

  // Nothing is answered twice on the next resume; the next turn sees the whole history.
  await cleanup.stop()
  const again = await resumeServer({
    answers: (conversation) => `History of ${conversation.length}`,
  })
  cleanup.stop = again.close
  const third = await TestClient.connect(again.url)
  third.send(JSON.stringify({ conversationId: 'c1' }))
  await third.waitFor((c) => c.count('SkipAnswer') === 1)
  third.utterance()
  await third.waitFor((c) => c.count('Message:assistant') === 1)
  await until(() => store.get('c1')!.length === 5)
  expect(store.get('c1')!.at(-1)).toEqual({ role: 'assistant', content: 'History of 5' })
})

it('closes with 4404 for an unknown conversation', async () => {
  const server = await resumeServer()
  cleanup.stop = server.close
  const client = await TestClient.connect(server.url)
  client.send(JSON.stringify({ conversationId: 'nope' }))
  await client.waitForClose()
  expect([client.closeCode, client.closeReason]).toEqual([4404, 'Unknown conversation'])
})
