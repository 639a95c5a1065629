import { CompletionEvent$inboundSchema } from '@mistralai/mistralai/models/components'
import type { ModelStreamPart } from '@openmic/core/provider'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MistralStreamError } from '../errors/mistral-stream-error.js'
import { mapMistralStream } from './map-mistral-stream.js'

const fixtures = new URL('../../../testing/fixtures/mistral/', import.meta.url)

/** Parses SSE data payloads exactly as the SDK does, then maps them. */
async function map(lines: Array<string | object>): Promise<ModelStreamPart[]> {
  async function* events() {
    for (const line of lines) {
      yield CompletionEvent$inboundSchema.parse({
        data: typeof line === 'string' ? line : JSON.stringify(line),
      })
    }
  }
  const parts: ModelStreamPart[] = []
  for await (const part of mapMistralStream(events())) parts.push(part)
  return parts
}

const fixture = (name: string) =>
  readFileSync(new URL(`${name}.chunks.txt`, fixtures), 'utf8')
    .trim()
    .split('\n')

const chunk = (delta: object, finishReason: string | null = null) => ({
  id: 'x',
  model: 'mistral-small-latest',
  choices: [{ index: 0, delta, finish_reason: finishReason }],
})

const text = (parts: ModelStreamPart[]) =>
  parts.map((part) => (part.type === 'text' ? part.delta : '')).join('')

describe('mapMistralStream', () => {
  it('streams string content as text parts (text fixture)', async () => {
    const parts = await map(fixture('text'))
    expect(parts.every((part) => part.type === 'text')).toBe(true)
    expect(text(parts)).toBe('Hello, world! This is a test response.')
  })

  it('maps thinking parts to reasoning and text parts to text (reasoning fixture)', async () => {
    const parts = await map(fixture('reasoning-then-text'))
    expect(parts).toEqual([
      { type: 'reasoning', delta: 'The user is asking' },
      { type: 'reasoning', delta: ' for 2+2. This is basic arithmetic. 2+2=4.' },
      { type: 'text', delta: '2 + 2 = 4' },
    ])
  })

  it('yields a whole tool call once the stream ended (tool-call fixture)', async () => {
    expect(await map(fixture('tool-call'))).toEqual([
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

  it('assembles tool calls sent in pieces, and keeps whole calls without index apart', async () => {
    const parts = await map([
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

  it('throws after the text when the stream ends without a finish reason', async () => {
    const lines = fixture('text').slice(0, 3)
    const parts: ModelStreamPart[] = []
    const run = async () => {
      for await (const part of mapMistralStream(
        (async function* () {
          for (const data of lines) yield CompletionEvent$inboundSchema.parse({ data })
        })()
      )) {
        parts.push(part)
      }
    }
    await expect(run()).rejects.toBeInstanceOf(MistralStreamError)
    expect(text(parts)).toBe('Hello, ')
  })

  it('throws on finish_reason "error"', async () => {
    await expect(map([chunk({ content: 'Hi' }), chunk({ content: '' }, 'error')])).rejects.toThrow(
      MistralStreamError
    )
  })
})
