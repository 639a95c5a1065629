import { describe, expect, it } from 'vitest'
import { encodeClientHello, encodePlayed, parseClientExtension } from './extensions.js'

describe('client extension messages', () => {
  it('Played: what the client encodes, the server parses', () => {
    expect(encodePlayed({ ms: 1234.5, paused: true })).toBe('Played {"ms":1234.5,"paused":true}')
    expect(parseClientExtension(encodePlayed({ ms: 1234.5, paused: true }))).toEqual({
      type: 'Played',
      played: { ms: 1234.5, paused: true },
    })
    expect(parseClientExtension('Played {"ms":0}')).toEqual({
      type: 'Played',
      played: { ms: 0, paused: false },
    })
  })

  it('Hello: what the client encodes, the server parses', () => {
    expect(encodeClientHello({ captions: true })).toBe('Hello {"captions":true}')
    expect(parseClientExtension(encodeClientHello({ captions: true }))).toEqual({
      type: 'Hello',
      hello: { captions: true, reportsPlaybackEnd: false },
    })
    expect(
      parseClientExtension(encodeClientHello({ captions: true, reportsPlaybackEnd: true }))
    ).toEqual({ type: 'Hello', hello: { captions: true, reportsPlaybackEnd: true } })
    expect(parseClientExtension('Hello {"future":1}')).toEqual({
      type: 'Hello',
      hello: { captions: false, reportsPlaybackEnd: false },
    })
  })

  it('anything else is not an extension, and nothing throws', () => {
    for (const text of [
      'StartSpeaking',
      'Played',
      'Played {',
      'Played null',
      'Played {"ms":"12"}',
      'Played {"ms":-1}',
      'Played {"ms":1e999}',
      'Other {"ms":12}',
      'Hello',
      'Hello [true]',
      'Hello "captions"',
      '',
    ]) {
      expect(parseClientExtension(text)).toBeUndefined()
    }
  })
})
