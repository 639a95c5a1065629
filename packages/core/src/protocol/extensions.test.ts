import { describe, expect, it } from 'vitest'
import { encodePlayed, parseClientExtension } from './extensions.js'

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
      '',
    ]) {
      expect(parseClientExtension(text)).toBeUndefined()
    }
  })
})
