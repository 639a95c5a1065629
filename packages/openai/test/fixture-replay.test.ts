import { readdirSync } from 'node:fs'
import { fixturePath, fixturesDir, readFixtureLines } from '@openmic/testing'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { answerOnce, makeAgent, useFakeOpenAI } from './helpers.js'

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
    if (event.type === 'response.failed') expected.error ??= event.response.error.code
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
  describe(`every ${folder} fixture`, () => {
    it.each(fixtureFiles(folder))(
      '%s replays into the right text, tools and conversation',
      async (file) => {
        const { fake } = server
        const lines = readFixtureLines(fixturePath(`${folder}/${file}`))
        const expected = expectedFrom(lines)
        const executed: Array<{ name: string; input: unknown }> = []
        const agent = makeAgent(fake, { api, maxRetry: 0 })
        for (const name of new Set(expected.toolCalls.map((call) => call.name))) {
          agent.addTool({
            name,
            description: `the ${name} tool`,
            parameters: z.object({}).loose(),
            execute: (input) => {
              executed.push({ name, input })
              return { ok: true }
            },
          })
        }
        fake.replyFixture(lines)
        if (expected.toolCalls.length > 0) fake.replyText('Done.')

        const { text, failed } = await answerOnce(agent)

        const after = agent.conversation.slice(2)
        if (expected.error) {
          expect(failed).toMatchObject({ name: 'OpenaiStreamError', code: expected.error })
          expect(fake.requests).toHaveLength(1) // an error inside the stream is not retried
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
            parameters: call.arguments === '' ? '{}' : call.arguments,
          }))
        )
        expect(executed.map((call) => call.input)).toEqual(
          expected.toolCalls.map((call) => JSON.parse(call.arguments || '{}'))
        )
        const answers = after
          .filter((item) => item.role === 'assistant')
          .map((item) => item.content ?? '')
        const spoken = [expected.text, expected.toolCalls.length > 0 ? 'Done.' : ''].filter(Boolean)
        expect(answers).toEqual(spoken)
        expect(fake.requests).toHaveLength(expected.toolCalls.length > 0 ? 2 : 1)
      }
    )
  })
}

describe('known fixtures', () => {
  it('openai-responses/text is "blue-42"', async () => {
    const { fake } = server
    fake.replyFixture(fixturePath('openai-responses/text.chunks.txt'))
    const agent = makeAgent(fake)
    expect((await answerOnce(agent)).text).toBe('blue-42')
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'blue-42' })
  })

  it('openai-chat/tool-call-with-reasoning assembles 10 argument deltas', async () => {
    const { fake } = server
    fake.replyFixture(fixturePath('openai-chat/tool-call-with-reasoning.chunks.txt'))
    fake.replyText('It is sunny.')
    const agent = makeAgent(fake, { api: 'chat' })
    let location: string | undefined
    agent.addTool({
      name: 'weather',
      description: 'Weather',
      parameters: z.object({ location: z.string() }),
      execute: (input) => void (location = input.location),
    })
    expect((await answerOnce(agent)).text).toBe('It is sunny.')
    expect(location).toBe('San Francisco')
    const call = agent.conversation.find((item) => item.role === 'tool_call')
    expect(call).toMatchObject({ parameters: '{"location": "San Francisco"}' })
  })
})

describe('Mistral streams through api: chat (a compatible server)', () => {
  it('speaks plain and typed-part content', async () => {
    const { fake } = server
    fake.replyFixture(fixturePath('mistral/text.chunks.txt'))
    fake.replyFixture(fixturePath('mistral/reasoning-then-text.chunks.txt'))
    const agent = makeAgent(fake, { api: 'chat' })
    expect((await answerOnce(agent)).text).toBe('Hello, world! This is a test response.')
    agent.addUserMessage('2+2?')
    expect((await answerOnce(agent)).text).toBe('2 + 2 = 4')
  })

  it('runs a whole tool call sent in one chunk without index', async () => {
    const { fake } = server
    fake.replyFixture(fixturePath('mistral/tool-call.chunks.txt'))
    fake.replyText('Foggy.')
    const agent = makeAgent(fake, { api: 'chat' })
    const locations: string[] = []
    agent.addTool({
      name: 'weather',
      description: 'Weather',
      parameters: z.object({ location: z.string() }),
      execute: ({ location }) => void locations.push(location),
    })
    expect((await answerOnce(agent)).text).toBe('Foggy.')
    expect(locations).toEqual(['San Francisco'])
  })
})
