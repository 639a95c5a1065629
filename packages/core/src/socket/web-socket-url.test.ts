import { describe, expect, it } from 'vitest'
import { webSocketURL } from './web-socket-url.js'

describe('webSocketURL', () => {
  it('derives wss/ws from the base URL, keeps a path prefix and skips undefined parameters', () => {
    expect(webSocketURL('https://api.example.com', '/v1/x', { a: 'b', c: undefined })).toBe(
      'wss://api.example.com/v1/x?a=b'
    )
    expect(webSocketURL('http://127.0.0.1:9000/proxy/', 'v1/x', { n: 180, t: true })).toBe(
      'ws://127.0.0.1:9000/proxy/v1/x?n=180&t=true'
    )
  })

  it('puts the path under the base path, versions included', () => {
    expect(webSocketURL('https://api.openai.com/v1', 'realtime', { intent: 'x' })).toBe(
      'wss://api.openai.com/v1/realtime?intent=x'
    )
    expect(webSocketURL('https://gateway.example.com/openai/v1/', '/realtime')).toBe(
      'wss://gateway.example.com/openai/v1/realtime'
    )
  })
})
