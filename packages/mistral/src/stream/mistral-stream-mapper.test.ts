import type { ModelStreamPart } from '@openmic/core/provider'
import { fixturePath } from '@openmic/testing'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MistralStreamError } from '../errors/MistralStreamError.js'
import { MistralStreamMapper } from './mistral-stream-mapper.js'

/** Maps wire chunks (JSON text or values) through one mapper, as the agent does. */
function map(lines: Array<string | object>, parts: ModelStreamPart[] = []): ModelStreamPart[] {
  const mapper = new MistralStreamMapper()
  const emit = (part: ModelStreamPart) => parts.push(part)
  for (const line of lines) {
    mapper.map({ data: typeof line === 'string' ? JSON.parse(line) : line }, emit)
  }
  mapper.finish(emit)
  return parts
}

const fixture = (name: string) =>
  readFileSync(fixturePath(`mistral/${name}.chunks.txt`), 'utf8')
    .trim()
    .split('\n')

const chunk = (delta: object, finishReason: string | null = null) => ({
  id: 'x',
  model: 'mistral-small-latest',
  choices: [{ index: 0, delta, finish_reason: finishReason }],
})

const text = (parts: ModelStreamPart[]) =>
  parts.map((part) => (part.type === 'text' ? part.delta : '')).join('')

describe('MistralStreamMapper', () => {
  it('streams string content as text parts (text fixture)', () => {
    const parts = map(fixture('text'))
    // The last chunk reports the tokens used, as Mistral counted them.
    expect(parts.at(-1)).toEqual({ type: 'usage', usage: { inputTokens: 13, outputTokens: 8 } })
    expect(parts.slice(0, -1).every((part) => part.type === 'text')).toBe(true)
    expect(text(parts)).toBe('Hello, world! This is a test response.')
  })

  it('maps thinking parts to reasoning and text parts to text (reasoning fixture)', () => {
    const parts = map(fixture('reasoning-then-text'))
    expect(parts).toEqual([
      { type: 'reasoning', delta: 'The user is asking' },
      { type: 'reasoning', delta: ' for 2+2. This is basic arithmetic. 2+2=4.' },
      { type: 'text', delta: '2 + 2 = 4' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 46 } },
    ])
  })

  it('yields a whole tool call once the stream ended (tool-call fixture)', () => {
    expect(map(fixture('tool-call'))).toEqual([
      { type: 'usage', usage: { inputTokens: 124, outputTokens: 22 } },
      {
        type: 'tool-call',
        toolCall: {
          role: 'tool_call',
          toolCallId: 'gSIMJiOkT',
          toolName: 'weather',
          parameters: '{"location": "San Francisco"}',
        },
      },
    ])
  })

  it('assembles tool calls sent in pieces, and keeps whole calls without index apart', () => {
    const parts = map([
      chunk({ role: 'assistant', content: '' }),
      chunk({
        tool_calls: [
          { id: 'aaaaaaaa1', index: 0, function: { name: 'weather', arguments: '{"ci' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { name: '', arguments: 'ty":"Pa' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: '', arguments: 'ris"}' } }] }),
      chunk({
        tool_calls: [
          { id: 'bbbbbbbb2', function: { name: 'time', arguments: { zone: 'CET' } } },
          { id: 'ccccccccc', function: { name: 'noop', arguments: '' } },
        ],
      }),
      chunk({ content: '' }, 'tool_calls'),
    ])
    expect(parts.map((part) => part.type === 'tool-call' && part.toolCall)).toEqual([
      {
        role: 'tool_call',
        toolCallId: 'aaaaaaaa1',
        toolName: 'weather',
        parameters: '{"city":"Paris"}',
      },
      {
        role: 'tool_call',
        toolCallId: 'bbbbbbbb2',
        toolName: 'time',
        parameters: '{"zone":"CET"}',
      },
      { role: 'tool_call', toolCallId: 'ccccccccc', toolName: 'noop', parameters: '{}' },
    ])
  })

  it('skips chunks without choices, delta or content (keep-alive), and reports usage', () => {
    const parts = map([
      chunk({ content: 'Before ' }),
      { id: 'x', choices: [], usage: null },
      { id: 'x', choices: null },
      { id: 'x', choices: [{ index: 0, delta: null, finish_reason: null }] },
      chunk({ content: null, tool_calls: null }),
      chunk({ content: 'after.' }, 'stop'),
      { id: 'x', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } },
    ])
    expect(parts).toEqual([
      { type: 'text', delta: 'Before ' },
      { type: 'text', delta: 'after.' },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 2 } },
    ])
  })

  it('throws after the text when the stream ends without a finish reason', () => {
    const parts: ModelStreamPart[] = []
    expect(() => map(fixture('text').slice(0, 3), parts)).toThrow(MistralStreamError)
    expect(text(parts)).toBe('Hello, ')
  })

  it('throws on finish_reason "error"', () => {
    expect(() => map([chunk({ content: 'Hi' }), chunk({ content: '' }, 'error')])).toThrow(
      MistralStreamError
    )
  })
})
