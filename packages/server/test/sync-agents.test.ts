import { MockSTT, MockTTS } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { ScriptedAgent, type AgentStep } from './doubles.js'
import { closeAfterEach, startMockCall, type TestClient } from './harness.js'

const cleanup = closeAfterEach()

/** Audio bytes MockTTS makes for a text: 10 ms per character, 16 kHz PCM16. */
const bytesOf = (text: string) => text.length * 10 * 32

/** A call whose agent plays `steps` for each answer; the user says one utterance, answered. */
async function turn(kind: 'sync' | 'async', steps: AgentStep[], done: (c: TestClient) => boolean) {
  const started = await startMockCall(cleanup, () => ({
    agent: new ScriptedAgent(kind, steps),
    stt: new MockSTT({ utterances: ['Hello'] }),
    tts: new MockTTS({ chunkMs: 20, chunkDelayMs: 5 }),
  }))
  const { client } = started
  await client.waitFor((c) => c.count('SkipAnswer') === 1)
  client.utterance()
  await client.waitFor(done)
  await client.settle(100)
  return started
}

/** The client's log after the opening SkipAnswer, audio frames collapsed. */
const turnFlow = (client: TestClient) => client.flow.slice(1)

// Every turn rule that involves an agent event, for an agent that acts before its first await
// (sync) and one that awaits first (async): the server must treat both alike.
describe.each(['sync', 'async'] as const)('a %s custom agent', (kind) => {
  it('Message: the spoken answer and its assistant message, no SkipAnswer', async () => {
    const { client, server } = await turn(
      kind,
      [{ say: 'Sure, here it is.' }, 'save'],
      (c) => c.audioBytes() >= bytesOf('Sure, here it is.')
    )
    expect(client.count('SkipAnswer')).toBe(1)
    expect(client.count('Message:assistant')).toBe(1)
    expect(client.audioBytes()).toBe(bytesOf('Sure, here it is.'))
    expect(server.agent.conversation.at(-1)).toEqual({
      role: 'assistant',
      content: 'Sure, here it is.',
    })
  })

  it('SkipAnswer: exactly one for the turn, no audio', async () => {
    const { client } = await turn(kind, ['skipAnswer'], (c) => c.count('SkipAnswer') === 2)
    expect(turnFlow(client)).toEqual(['Message:user', 'SkipAnswer'])
  })

  it('EndCall: once, after the last audio frame of the goodbye', async () => {
    const goodbye = 'Goodbye, have a nice day!'
    const { client } = await turn(kind, [{ say: goodbye }, 'save', 'endCall'], (c) =>
      c.log.includes('EndCall')
    )
    expect(client.count('EndCall')).toBe(1)
    expect(client.log.at(-1)).toBe('EndCall')
    expect(client.audioBytes()).toBe(bytesOf(goodbye))
    expect(client.count('SkipAnswer')).toBe(1)
  })

  it('CancelLastUserMessage: the noise is removed on both sides and one SkipAnswer ends the turn', async () => {
    const { client, server } = await turn(
      kind,
      ['cancelLastUserMessage', 'skipAnswer'],
      (c) => c.count('SkipAnswer') === 2
    )
    expect(turnFlow(client)).toEqual(['Message:user', 'CancelLastUserMessage', 'SkipAnswer'])
    expect(server.agent.conversation.map((item) => item.role)).toEqual(['system'])
  })

  it('ToolCall: forwarded with the tool items, then the answer is spoken, no SkipAnswer', async () => {
    const { client } = await turn(
      kind,
      [{ tool: 'lookup' }, { say: 'Done.' }, 'save'],
      (c) => c.audioBytes() >= bytesOf('Done.')
    )
    expect(turnFlow(client).filter((entry) => entry !== 'audio')).toEqual([
      'Message:user',
      'Message:tool_call',
      'Message:tool_result',
      'ToolCall',
      'Message:assistant',
    ])
    expect(client.texts('ToolCall')[0]).toEqual({
      type: 'ToolCall',
      toolCall: { name: 'lookup', parameters: {}, output: 'done' },
    })
    expect(client.count('SkipAnswer')).toBe(1)
  })
})
