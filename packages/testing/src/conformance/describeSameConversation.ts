import type { Readable } from 'node:stream'
import type { Agent, AgentEvents, AgentOptions } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { FakeResponse } from '../sse-server/types.js'

/** An agent for {@link describeSameConversation}, and the fake server its model talks to. */
export interface ConversationAgent {
  agent: Agent
  /**
   * The agent's fake model server (a `FakeOpenAI`, a `FakeMistral`...): reset, scripted with the
   * shared model behaviour, and checked to be used up.
   */
  server: {
    reset(): void
    enqueue(...responses: FakeResponse[]): unknown
    readonly pending: number
  }
}

/** Builds one side of {@link describeSameConversation} from the agent options to give it. */
export type MakeConversationAgent = (
  options: AgentOptions
) => ConversationAgent | Promise<ConversationAgent>

/**
 * The scripted model, turn by turn. Tool call ids are nine letters and digits: Mistral's API
 * refuses any other, the others take anything.
 */
const SCRIPT: FakeResponse[] = [
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

const USER_TURNS = ['Weather in Paris?', 'I was wondering', 'if it will rain', 'Bye']

const OPTIONS: AgentOptions = {
  systemPrompt: 'You are a weather assistant.',
  autoSemanticTurn: true,
  autoEndCall: true,
  extract: { startTag: '<mood>', endTag: '</mood>', saveInMetadata: true },
}

const EVENTS: Array<keyof AgentEvents> = [
  'Message',
  'ToolMessage',
  'ToolCall',
  'SkipAnswer',
  'EndCall',
  'CancelLastUserMessage',
  'Failed',
]

/**
 * Declares a vitest test that plays one conversation through two agents whose models behave the
 * same (the same scripted responses, each in its provider's wire format): text with a tool call
 * whose arguments come in pieces, an extracted tag split across deltas, a semantic turn skipped,
 * and an end call. Both must give the same spoken text, the same events and the same
 * conversation: switching from `reference` to `candidate` changes nothing a user of the agent can
 * observe.
 *
 * @example
 * describeSameConversation(
 *   'switching from OpenaiAgent to MistralAgent',
 *   (options) => ({ agent: new OpenaiAgent({ ...options, apiKey: 'test', baseURL: openai.baseURL }), server: openai }),
 *   (options) => ({ agent: new MistralAgent({ ...options, apiKey: 'test', serverURL: mistral.serverURL }), server: mistral })
 * )
 */
export function describeSameConversation(
  name: string,
  reference: MakeConversationAgent,
  candidate: MakeConversationAgent
): void {
  describe(name, () => {
    it('gives the same conversation, events and spoken text for the same model behaviour', async () => {
      const viaReference = await play(await reference(OPTIONS))
      const viaCandidate = await play(await candidate(OPTIONS))

      expect(viaCandidate).toEqual(viaReference)
      expect(viaCandidate.answers).toEqual([
        'Let me check. Sunny in Paris. ',
        '',
        'No rain today.',
        'Goodbye!',
      ])
      expect(viaCandidate.conversation.map((item) => item.role)).toEqual([
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
}

/** Plays the user turns against the agent; returns what a user of the agent can observe. */
async function play({ agent, server }: ConversationAgent) {
  server.reset()
  server.enqueue(...SCRIPT)
  agent.addTool({
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: z.object({ city: z.string() }),
    emitOutput: true,
    execute: ({ city }) => ({ city, sky: 'sunny' }),
  })
  const events: unknown[] = []
  for (const name of EVENTS) agent.on(name, (...args: unknown[]) => events.push([name, ...args]))
  const answers: string[] = []
  for (const turn of USER_TURNS) {
    agent.addUserMessage(turn)
    answers.push(await readAll(agent.answer()))
  }
  expect(server.pending, 'scripted responses left').toBe(0)
  return { answers, events, conversation: agent.conversation }
}

async function readAll(stream: Readable): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += String(chunk)
  return text
}
