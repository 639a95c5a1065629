import { MockAgent, MockSTT, MockTTS, type MicdropConversation } from '@openmic/core'
import { MicdropServer } from '@openmic/server'
import { describe, expect, it, vi } from 'vitest'
import { callRealServer, serverSide } from './real-server-call.js'

// The client's conversation against a real MicdropServer on 127.0.0.1 (`ws` as the WebSocket),
// with a scripted model that uses the default tools as their descriptions ask.

/** The user messages since the last assistant message: what the next answer replies to. */
function pendingUserTexts(conversation: MicdropConversation): string[] {
  const lastAnswer = conversation.findLastIndex((item) => item.role === 'assistant')
  return conversation
    .slice(lastAnswer + 1)
    .flatMap((item) => (item.role === 'user' ? [item.content] : []))
}

async function call(utterances: string[]) {
  const { client, mic, speaker, server } = await callRealServer((socket) => {
    const agent = new MockAgent({
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
    return new MicdropServer(socket, {
      agent,
      stt: new MockSTT({ utterances }),
      tts: new MockTTS(),
    })
  })
  /** One utterance through the VAD; resolves once the turn ended (answer or SkipAnswer). */
  const say = async () => {
    mic.frames(10, -20)
    mic.frames(31, -90)
    expect(client.isProcessing).toBe(true)
    await vi.waitFor(() => expect(client.isProcessing).toBe(false))
  }
  /** Plays out what the speaker got until the answer's message arrives: it comes once heard. */
  const hearAnswer = () =>
    vi.waitFor(() => {
      speaker.finish()
      expect(client.conversation.at(-1)?.role).toBe('assistant')
    })
  return { client, say, hearAnswer, server }
}

describe('default tools, seen from the client', () => {
  it('noise: the user message is removed from the conversation on both sides', async () => {
    const { client, say, hearAnswer, server } = await call(['Hmm', 'What time is it?'])
    await say()
    await vi.waitFor(() =>
      expect(client.conversation.map((item) => item.role)).toEqual(['tool_call', 'tool_result'])
    )
    expect(client.conversation).toEqual(serverSide(server()))
    await say()
    await hearAnswer()
    expect(client.conversation).toEqual(serverSide(server()))
    expect(client.conversation.filter((item) => item.role === 'user')).toEqual([
      { role: 'user', content: 'What time is it?' },
    ])
  })

  it('semantic turn: the unfinished sentence is kept and answered with the next utterance', async () => {
    const { client, say, hearAnswer, server } = await call([
      'I would like to',
      'book a table for two.',
    ])
    await say()
    expect(client.conversation.some((item) => item.role === 'assistant')).toBe(false)
    await say()
    await hearAnswer()
    expect(client.conversation).toEqual(serverSide(server()))
    expect(client.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'Answering: I would like to / book a table for two.',
    })
  })
})
