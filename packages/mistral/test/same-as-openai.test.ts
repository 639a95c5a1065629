import { OpenaiAgent } from '@openmic/openai'
import { createFakeOpenAI, type FakeResponse, type FakeSseServer } from '@openmic/testing'
import type { Agent, AgentEvents, AgentOptions } from '@openmic/core'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { mistralAgent, readAll, useFakeMistral } from './helpers.js'

/** The same scripted model, turn by turn, for both providers' fake servers. */
const script: FakeResponse[] = [
  // Turn 1: text and a tool call (arguments in pieces), then the answer with an extracted value.
  {
    type: 'stream',
    parts: [
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'check.' },
      {
        type: 'tool-call',
        id: 'abcDEF123',
        name: 'get_weather',
        arguments: { city: 'Paris' },
        argumentChunks: 3,
      },
    ],
  },
  {
    type: 'stream',
    parts: [
      { type: 'text', delta: 'Sunny in Paris. <mo' },
      { type: 'text', delta: 'od>happy</mood>' },
    ],
  },
  // Turn 2: the user stopped mid-sentence; the model waits.
  { type: 'stream', parts: [{ type: 'tool-call', id: 'abcDEF124', name: 'semantic_turn' }] },
  // Turn 3: an answer after the skipped turn, then the user says goodbye.
  {
    type: 'stream',
    parts: [
      { type: 'text', delta: 'No rain ' },
      { type: 'text', delta: 'today.' },
    ],
  },
  {
    type: 'stream',
    parts: [
      { type: 'text', delta: 'Goodbye!' },
      { type: 'tool-call', id: 'abcDEF125', name: 'end_call' },
    ],
  },
  { type: 'stream', parts: [] },
]

const userTurns = ['Weather in Paris?', 'I was wondering', 'if it will rain', 'Bye']

const options: AgentOptions = {
  systemPrompt: 'You are a weather assistant.',
  autoSemanticTurn: true,
  autoEndCall: true,
  extract: { startTag: '<mood>', endTag: '</mood>', saveInMetadata: true },
}

const eventNames: Array<keyof AgentEvents> = [
  'Message',
  'ToolMessage',
  'ToolCall',
  'SkipAnswer',
  'EndCall',
  'CancelLastUserMessage',
  'Failed',
]

/** Plays the user turns against `agent`; returns what a user of the agent can observe. */
async function play(agent: Agent, server: FakeSseServer) {
  server.enqueue(...script)
  agent.addTool({
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: z.object({ city: z.string() }),
    emitOutput: true,
    execute: ({ city }) => ({ city, sky: 'sunny' }),
  })
  const events: unknown[] = []
  for (const name of eventNames) {
    agent.on(name, (...args: unknown[]) => events.push([name, ...args]))
  }
  const answers: string[] = []
  for (const turn of userTurns) {
    agent.addUserMessage(turn)
    answers.push(await readAll(agent.answer()))
  }
  expect(server.pending).toBe(0)
  return { answers, events, conversation: agent.conversation }
}

const mistral = useFakeMistral()
let openai: FakeSseServer | undefined
afterEach(async () => {
  await openai?.close()
})

describe('switching from OpenaiAgent to MistralAgent', () => {
  it('gives the same conversation, events and spoken text for the same model behaviour', async () => {
    const fakeOpenai = await createFakeOpenAI()
    openai = fakeOpenai
    const viaOpenai = await play(
      new OpenaiAgent({ ...options, apiKey: 'sk-test', baseURL: fakeOpenai.baseURL }),
      fakeOpenai
    )
    const viaMistral = await play(mistralAgent(mistral.server, options), mistral.server)

    expect(viaMistral).toEqual(viaOpenai)
    expect(viaMistral.answers).toEqual([
      'Let me check. Sunny in Paris. ',
      '',
      'No rain today.',
      'Goodbye!',
    ])
    expect(viaMistral.conversation.map((item) => item.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool_call',
      'tool_result',
      'assistant',
      'user',
      'tool_call',
      'tool_result',
      'user',
      'assistant',
      'user',
      'assistant',
      'tool_call',
      'tool_result',
    ])
  })
})
