import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { createFakeMistral, fixturePath, readFixtureLines, type FakeMistral } from '../src/index.js'

let fake: FakeMistral

beforeEach(async () => {
  await fake?.close()
  fake = await createFakeMistral()
})
afterAll(() => fake?.close())

const validBody = { model: 'mistral-small-latest', messages: [{ role: 'user', content: 'hi' }] }

async function post(body: unknown) {
  return fetch(`${fake.serverURL}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

/** The JSON payloads of a data-only SSE body, without the [DONE] sentinel. */
function events(raw: string): any[] {
  return raw
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice('data: '.length)))
}

describe('createFakeMistral', () => {
  it('replays each Mistral fixture byte for byte as data-only SSE ended by [DONE]', async () => {
    for (const name of ['text', 'tool-call', 'reasoning-then-text']) {
      const lines = readFixtureLines(fixturePath(`mistral/${name}.chunks.txt`))
      fake.replyFixture(lines)
      const response = await post(validBody)
      expect(response.headers.get('content-type')).toContain('text/event-stream')
      expect(await response.text()).toBe(
        lines.map((line) => `data: ${line}\n\n`).join('') + 'data: [DONE]\n\n'
      )
    }
  })

  it("scripts text, reasoning and tool calls in Mistral's chunk format", async () => {
    fake.replyParts([
      { type: 'reasoning', delta: 'Hmm.' },
      { type: 'text', delta: 'Hi' },
      { type: 'tool-call', id: 'abcDEF123', name: 'weather', arguments: { city: 'Paris' } },
      {
        type: 'tool-call',
        id: 'abcDEF124',
        name: 'weather',
        arguments: '{"city":"Rome"}',
        argumentChunks: 2,
      },
    ])
    const deltas = events(await (await post({ ...validBody, model: 'm1' })).text()).map((event) => {
      expect(event.model).toBe('m1')
      return [event.choices[0].delta, event.choices[0].finish_reason]
    })
    expect(deltas).toEqual([
      [{ role: 'assistant', content: '' }, null],
      [{ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Hmm.' }] }] }, null],
      [{ content: 'Hi' }, null],
      [
        {
          content: null,
          tool_calls: [
            { id: 'abcDEF123', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        null,
      ],
      [
        {
          tool_calls: [
            { id: 'abcDEF124', index: 1, function: { name: 'weather', arguments: '{"city":' } },
          ],
        },
        null,
      ],
      [{ tool_calls: [{ index: 1, function: { name: '', arguments: '"Rome"}' } }] }, null],
      [{ content: '' }, 'tool_calls'],
    ])
  })

  it("answers 400 in Mistral's words to messages Mistral rejects, keeping the scripted response", async () => {
    fake.replyText('Hello')
    const response = await post({
      model: 'm',
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          tool_calls: [{ id: 'abcDEF123', function: { name: 'w', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'abcDEF123', content: '{}' },
        { role: 'user', content: 'And?' },
      ],
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      object: 'error',
      message: "Unexpected role 'user' after role 'tool'",
    })
    expect(fake.pending).toBe(1)
    expect(
      events(await (await post(validBody)).text()).map((event) => event.choices[0].delta.content)
    ).toEqual(['', 'Hello', ''])
  })

  it("sends HTTP errors with Mistral's error body and retry-after", async () => {
    fake.replyError(429, undefined, { retryAfter: 2 })
    const response = await post(validBody)
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('2')
    expect(await response.json()).toMatchObject({ object: 'error', type: 'rate_limited' })
  })
})
