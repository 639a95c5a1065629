import { describe, expect, it } from 'vitest'
import { speechURL } from './endpoint.js'

describe('speechURL', () => {
  it("uses Gradium's host, or a region's, unless a base URL is given", () => {
    expect(speechURL('asr', undefined, undefined)).toBe('wss://api.gradium.ai/api/speech/asr')
    expect(speechURL('asr', undefined, 'eu')).toBe('wss://eu.api.gradium.ai/api/speech/asr')
    expect(speechURL('tts', undefined, 'us')).toBe('wss://us.api.gradium.ai/api/speech/tts')
    expect(speechURL('tts', 'https://api.gradium.ai', 'us')).toBe(
      'wss://api.gradium.ai/api/speech/tts'
    )
  })

  it("keeps a base URL's path prefix and maps http to ws", () => {
    expect(speechURL('asr', 'http://127.0.0.1:8080/proxy/', undefined)).toBe(
      'ws://127.0.0.1:8080/proxy/api/speech/asr'
    )
  })
})
