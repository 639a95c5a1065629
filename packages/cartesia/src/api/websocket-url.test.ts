import { describe, expect, it } from 'vitest'
import { websocketURL } from './websocket-url.js'

describe('websocketURL', () => {
  it("derives the WebSocket URL from the API's origin, keeping a path prefix", () => {
    expect(websocketURL(undefined, '/tts/websocket')).toBe('wss://api.cartesia.ai/tts/websocket')
    expect(websocketURL('http://127.0.0.1:8080/proxy', '/stt/websocket', { model: 'ink 2' })).toBe(
      'ws://127.0.0.1:8080/proxy/stt/websocket?model=ink+2'
    )
  })

  it('leaves out query parameters that are not set', () => {
    expect(websocketURL('https://x.test/', 'stt/websocket', { a: 1, b: undefined })).toBe(
      'wss://x.test/stt/websocket?a=1'
    )
  })
})
