import { describe, expect, it } from 'vitest'
import { realtimeURL } from './endpoint.js'

describe('realtimeURL', () => {
  it("derives the WebSocket URL from the API's, keeping a path prefix", () => {
    expect(realtimeURL(undefined, 'm')).toBe(
      'wss://api.mistral.ai/v1/audio/transcriptions/realtime?model=m'
    )
    expect(realtimeURL('https://api.eu.mistral.ai/', 'm')).toBe(
      'wss://api.eu.mistral.ai/v1/audio/transcriptions/realtime?model=m'
    )
    expect(realtimeURL('http://127.0.0.1:8080/proxy', 'a b')).toBe(
      'ws://127.0.0.1:8080/proxy/v1/audio/transcriptions/realtime?model=a+b'
    )
  })
})
