import { describe, expect, it } from 'vitest'
import { transcriptionURL } from './endpoint.js'

describe('transcriptionURL', () => {
  it("derives the WebSocket URL from the SDK's baseURL", () => {
    expect(transcriptionURL('https://api.openai.com/v1')).toBe(
      'wss://api.openai.com/v1/realtime?intent=transcription'
    )
    expect(transcriptionURL('https://gateway.example.com/openai/v1/')).toBe(
      'wss://gateway.example.com/openai/v1/realtime?intent=transcription'
    )
    expect(transcriptionURL('http://127.0.0.1:8080/v1')).toBe(
      'ws://127.0.0.1:8080/v1/realtime?intent=transcription'
    )
  })
})
