import { MockAgent, MockSTT, type MicdropConversation } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { closeAfterEach, startMockCall } from './harness.js'

const cleanup = closeAfterEach()

/** The user messages since the last assistant message: what the next answer replies to. */
function pendingUserTexts(conversation: MicdropConversation): string[] {
  const lastAnswer = conversation.findLastIndex((item) => item.role === 'assistant')
  return conversation
    .slice(lastAnswer + 1)
    .flatMap((item) => (item.role === 'user' ? [item.content] : []))
}

/**
 * A scripted model that behaves as the default tools' descriptions ask: it waits (`semantic_turn`)
 * when the user stopped mid-sentence, ignores a mere "Hmm" (`ignore_user_noise`), and otherwise
 * answers every user message since its last answer.
 */
const scriptedModel = () =>
  new MockAgent({
    autoSemanticTurn: true,
    autoIgnoreUserNoise: true,
    answers: (conversation) => {
      const texts = pendingUserTexts(conversation)
      const last = texts.at(-1) ?? ''
      if (/^(hmm|uh)\W*$/i.test(last)) return { toolCalls: [{ name: 'ignore_user_noise' }] }
      if (!/[.?!]$/.test(last)) return { toolCalls: [{ name: 'semantic_turn' }] }
      return `Answering: ${texts.join(' / ')}`
    },
  })

async function call(utterances: string[]) {
  const started = await startMockCall(cleanup, () => ({
    agent: scriptedModel(),
    stt: new MockSTT({ utterances }),
  }))
  await started.client.waitFor((c) => c.count('SkipAnswer') === 1)
  return started
}

describe('the default tools, end to end through the server with a scripted model', () => {
  it('semantic turn: an unfinished sentence gets SkipAnswer, the next utterance is answered with it', async () => {
    const { client, server } = await call(['I would like to', 'book a table for two.'])
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    await client.settle()
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Message:user',
      'Message:tool_call',
      'SkipAnswer',
      'Message:tool_result',
    ])
    expect(client.count('audio')).toBe(0)

    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle()
    // A Micdrop client: the answer's text as it starts playing, among its audio
    expect(client.log.slice(5).filter((entry) => entry !== 'audio')).toEqual([
      'Message:user',
      'Message:assistant',
    ])
    expect(client.log.slice(5)[1]).toBe('audio')
    expect(client.count('SkipAnswer')).toBe(2)
    const answer = 'Answering: I would like to / book a table for two.'
    expect(server.agent.conversation.at(-1)).toEqual({ role: 'assistant', content: answer })
    expect(client.texts('Message').at(-1)).toMatchObject({
      item: { role: 'assistant', content: answer },
    })
  })

  it('noise: the user message is removed on both sides, and the next turn is answered alone', async () => {
    const { client, server } = await call(['Hmm', 'What time is it?'])
    client.utterance()
    await client.waitFor((c) => c.count('SkipAnswer') === 2)
    await client.settle()
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Message:user',
      'Message:tool_call',
      'CancelLastUserMessage',
      'SkipAnswer',
      'Message:tool_result',
    ])
    expect(server.agent.conversation.some((item) => item.role === 'user')).toBe(false)

    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle()
    expect(client.count('SkipAnswer')).toBe(2)
    expect(
      server.agent.conversation.filter((item) => item.role !== 'system' && !('toolName' in item))
    ).toEqual([
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: 'Answering: What time is it?' },
    ])
  })
})
