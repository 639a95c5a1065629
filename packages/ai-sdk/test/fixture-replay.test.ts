import { fixturePath, fixturesDir, readFixtureLines } from '@openmic/testing'
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { answerOnce, fakeOpenaiAgent, useFakeOpenAI } from './helpers.js'

const server = useFakeOpenAI()

interface Expected {
  text: string
  toolCalls: Array<{ id: string; name: string; arguments: string }>
  error?: string
}

/** What a recorded Responses stream says, read straight from its events. */
function expectedFromResponses(lines: string[]): Expected {
  const expected: Expected = { text: '', toolCalls: [] }
  for (const event of lines.map((line) => JSON.parse(line))) {
    if (event.type === 'response.output_text.delta') expected.text += event.delta
    if (event.type === 'response.output_item.done' && event.item.type === 'function_call') {
      const { call_id, name, arguments: args } = event.item
      expected.toolCalls.push({ id: call_id, name, arguments: args })
    }
    if (event.type === 'error') expected.error ??= event.error?.code ?? event.code
  }
  return expected
}

/** What a recorded Chat Completions stream says, read straight from its chunks. */
function expectedFromChat(lines: string[]): Expected {
  const expected: Expected = { text: '', toolCalls: [] }
  for (const chunk of lines.map((line) => JSON.parse(line))) {
    const delta = chunk.choices?.[0]?.delta ?? {}
    expected.text += delta.content ?? ''
    for (const call of delta.tool_calls ?? []) {
      const index = call.index ?? expected.toolCalls.length
      expected.toolCalls[index] ??= { id: '', name: '', arguments: '' }
      const target = expected.toolCalls[index]!
      target.id ||= call.id ?? ''
      target.name ||= call.function?.name ?? ''
      target.arguments += call.function?.arguments ?? ''
    }
  }
  return expected
}

function fixtureFiles(folder: string): string[] {
  return readdirSync(`${fixturesDir()}/${folder}`).filter((name) => name.endsWith('.chunks.txt'))
}

const folders = [
  { folder: 'openai-responses', api: 'responses', expect: expectedFromResponses },
  { folder: 'openai-chat', api: 'chat', expect: expectedFromChat },
] as const

for (const { folder, api, expect: expectedFrom } of folders) {
  describe(`every ${folder} fixture through @ai-sdk/openai`, () => {
    it.each(fixtureFiles(folder))(
      '%s replays into the right text, tools and conversation',
      async (file) => {
        const { fake } = server
        const lines = readFixtureLines(fixturePath(`${folder}/${file}`))
        const expected = expectedFrom(lines)
        const executed: unknown[] = []
        const agent = fakeOpenaiAgent(fake, api, { maxRetry: 2 })
        agent.addUserMessage('Hello')
        for (const name of new Set(expected.toolCalls.map((call) => call.name))) {
          agent.addTool({
            name,
            description: `the ${name} tool`,
            parameters: z.object({}).loose(),
            execute: (input) => {
              executed.push(input)
              return { ok: true }
            },
          })
        }
        fake.replyFixture(lines)
        if (expected.toolCalls.length > 0) fake.replyText('Done.')

        const { text, failed } = await answerOnce(agent)

        const after = agent.conversation.slice(2)
        if (expected.error) {
          // The provider turns the stream's error into an APICallError with its verdict.
          expect(failed).toMatchObject({ name: 'AI_APICallError', retryable: false })
          expect(JSON.stringify(failed.data)).toContain(expected.error)
          expect(fake.requests).toHaveLength(1) // the provider says this failure is final
          expect(after).toEqual([])
          return
        }
        expect(failed).toBeUndefined()
        expect(text).toBe(
          [expected.text, expected.toolCalls.length > 0 ? 'Done.' : ''].filter(Boolean).join(' ')
        )
        const calls = after.filter((item) => item.role === 'tool_call')
        expect(calls).toEqual(
          expected.toolCalls.map((call) => ({
            role: 'tool_call',
            toolCallId: call.id,
            toolName: call.name,
            // The AI SDK hands over parsed arguments: openmic records them re-encoded.
            parameters: JSON.stringify(JSON.parse(call.arguments || '{}')),
          }))
        )
        expect(executed).toEqual(
          expected.toolCalls.map((call) => JSON.parse(call.arguments || '{}'))
        )
        const answers = after
          .filter((item) => item.role === 'assistant')
          .map((item) => item.content)
        const spoken = [expected.text, expected.toolCalls.length > 0 ? 'Done.' : ''].filter(Boolean)
        expect(answers).toEqual(spoken)
        expect(fake.requests).toHaveLength(expected.toolCalls.length > 0 ? 2 : 1)
      }
    )
  })
}

describe('known fixtures through @ai-sdk/openai', () => {
  it('openai-responses/text is "blue-42", sent to /v1/responses with the key', async () => {
    const { fake } = server
    fake.replyFixture(fixturePath('openai-responses/text.chunks.txt'))
    const agent = fakeOpenaiAgent(fake, 'responses')
    agent.addUserMessage('Hello')
    expect((await answerOnce(agent)).text).toBe('blue-42')
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'blue-42' })
    const request = fake.requests[0]!
    expect(request.path).toBe('/v1/responses')
    expect(request.headers.authorization).toBe('Bearer sk-test')
    expect(request.body).toMatchObject({ model: 'gpt-4.1-mini', stream: true })
  })

  it('openai-chat/tool-call-with-reasoning assembles 10 argument deltas and sends the result back', async () => {
    const { fake } = server
    fake.replyFixture(fixturePath('openai-chat/tool-call-with-reasoning.chunks.txt'))
    fake.replyText('It is sunny.')
    const agent = fakeOpenaiAgent(fake, 'chat')
    agent.addUserMessage('Weather in San Francisco?')
    let location: string | undefined
    agent.addTool({
      name: 'weather',
      description: 'Weather',
      parameters: z.object({ location: z.string() }),
      execute: (input) => {
        location = input.location
        return { celsius: 21 }
      },
    })
    expect((await answerOnce(agent)).text).toBe('It is sunny.')
    expect(location).toBe('San Francisco')
    expect(fake.requests[0]!.path).toBe('/v1/chat/completions')
    const call = agent.conversation.find((item) => item.role === 'tool_call')!
    expect(fake.requests[1]!.body.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: (call as { toolCallId: string }).toolCallId,
            type: 'function',
            function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: (call as { toolCallId: string }).toolCallId,
        content: '{"celsius":21}',
      },
    ])
  })
})
