import { describe, expect, it } from 'vitest'
import { encodeServerMessage, parseServerMessage } from './messages.js'

describe('server messages', () => {
  it('encode a bare command or a command with JSON', () => {
    expect(encodeServerMessage('SkipAnswer')).toBe('SkipAnswer')
    expect(encodeServerMessage('Message', { role: 'user', content: 'Hi there' })).toBe(
      'Message {"role":"user","content":"Hi there"}'
    )
  })

  it('parse what they encode', () => {
    const item = { role: 'assistant' as const, content: 'Hello world' }
    expect(parseServerMessage(encodeServerMessage('Message', item))).toEqual({
      type: 'Message',
      item,
    })
    expect(parseServerMessage('EndCall')).toEqual({ type: 'EndCall' })
    expect(parseServerMessage('ToolCall {"name":"t","parameters":{},"output":1}')).toEqual({
      type: 'ToolCall',
      toolCall: { name: 't', parameters: {}, output: 1 },
    })
    expect(parseServerMessage('Metrics {"endToEndMs":12}')).toEqual({
      type: 'Metrics',
      metrics: { endToEndMs: 12 },
    })
    expect(parseServerMessage('Resume')).toEqual({ type: 'Resume' })
    expect(parseServerMessage('Interrupt')).toEqual({ type: 'Interrupt' })
    expect(parseServerMessage('Hello {"resume":true,"settlesBargeIns":true}')).toEqual({
      type: 'Hello',
      hello: { resume: true, settlesBargeIns: true },
    })
    // An older server says less: what it does not say, it does not do
    expect(parseServerMessage('Hello {"resume":true}')).toEqual({
      type: 'Hello',
      hello: { resume: true, settlesBargeIns: false },
    })
    expect(parseServerMessage('Hello {}')).toEqual({
      type: 'Hello',
      hello: { resume: false, settlesBargeIns: false },
    })
    expect(parseServerMessage('Caption {"text":" two three","atMs":70,"extra":1}')).toEqual({
      type: 'Caption',
      caption: { text: ' two three', atMs: 70 },
    })
  })

  it('a Caption without text or a usable position is not a caption', () => {
    for (const text of [
      'Caption {"text":"x"}',
      'Caption {"text":1,"atMs":2}',
      'Caption {"text":"x","atMs":-1}',
      'Caption {"text":"x","atMs":"5"}',
      'Caption "x"',
      'Hello 3',
    ]) {
      expect(parseServerMessage(text).type).toBe('Unknown')
    }
  })

  it('never throw on unknown names or bad payloads', () => {
    expect(parseServerMessage('Future {"x":1}')).toEqual({
      type: 'Unknown',
      name: 'Future',
      payload: { x: 1 },
    })
    expect(parseServerMessage('Message {oops')).toEqual({
      type: 'Unknown',
      name: 'Message',
      payload: '{oops',
    })
    expect(parseServerMessage('Message 42')).toEqual({
      type: 'Unknown',
      name: 'Message',
      payload: 42,
    })
    expect(parseServerMessage('')).toEqual({ type: 'Unknown', name: '', payload: undefined })
  })
})
