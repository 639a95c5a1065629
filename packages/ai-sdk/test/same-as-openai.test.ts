import type { Agent, AgentEvents, AgentOptions } from '@openmic/core'
import { OpenaiAgent } from '@openmic/openai'
import type { FakeResponse, FakeSseServer } from '@openmic/testing'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AiSdkAgent } from '../src/index.js'
import { openaiModel, readAll, useFakeOpenAI, type OpenaiApi } from './helpers.js'

/** The same scripted model, turn by turn. */
const script: FakeResponse[] = [
  // Turn 1: text and a tool call (arguments in pieces), then the answer with an extracted value.
  {
    type: 'stream',
    parts: [
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'check.' },
      {
        type: 'tool-call',
        id: 'call_weather_1',
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
  { type: 'stream', parts: [{ type: 'tool-call', id: 'call_turn_1', name: 'semantic_turn' }] },
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
      { type: 'tool-call', id: 'call_end_1', name: 'end_call' },
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
  server.reset()
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

const server = useFakeOpenAI()

describe('switching from OpenaiAgent to AiSdkAgent', () => {
  it.each(['responses', 'chat'] as OpenaiApi[])(
    'gives the same conversation, events and spoken text for the same model behaviour (%s)',
    async (api) => {
      const { fake } = server
      const viaOpenai = await play(
        new OpenaiAgent({ ...options, api, apiKey: 'sk-test', baseURL: fake.baseURL }),
        fake
      )
      const viaAiSdk = await play(
        new AiSdkAgent({ ...options, model: openaiModel(fake.baseURL, api) }),
        fake
      )

      expect(viaAiSdk).toEqual(viaOpenai)
      expect(viaAiSdk.answers).toEqual([
        'Let me check. Sunny in Paris. ',
        '',
        'No rain today.',
        'Goodbye!',
      ])
      expect(viaAiSdk.conversation.map((item) => item.role)).toEqual([
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
    }
  )
})
