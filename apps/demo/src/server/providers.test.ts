import { CartesiaSTT, CartesiaTTS } from '@openmic/cartesia'
import { MistralSTT, MistralTTS } from '@openmic/mistral'
import { OpenaiSTT, OpenaiTTS } from '@openmic/openai'
import {
  createFakeCartesiaSTT,
  createFakeCartesiaTTS,
  createFakeMistralRealtime,
  createFakeOpenaiRealtime,
} from '@openmic/testing'
import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.js'
import { createSTT, createTTS } from './providers.js'

const until = async (condition: () => boolean, timeoutMs = 3000) => {
  const end = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('speech by configuration', () => {
  it('with OPENAI_API_KEY: OpenaiSTT (its socket opened with the key) and OpenaiTTS', async () => {
    const realtime = await createFakeOpenaiRealtime()
    const config = loadConfig({ OPENAI_API_KEY: 'sk-demo', OPENAI_BASE_URL: realtime.baseURL })
    const stt = await createSTT(config)
    const tts = await createTTS(config)
    try {
      expect(stt).toBeInstanceOf(OpenaiSTT)
      expect(tts).toBeInstanceOf(OpenaiTTS)
      await until(() => realtime.handshakes.length > 0)
      expect(realtime.handshakes[0]!.headers.authorization).toBe('Bearer sk-demo')
    } finally {
      stt.destroy()
      tts.destroy()
      await realtime.close()
    }
  })

  it('with MISTRAL_API_KEY: MistralSTT (its socket opened with the key) and MistralTTS', async () => {
    const realtime = await createFakeMistralRealtime()
    const config = loadConfig({ MISTRAL_API_KEY: 'm-demo', MISTRAL_SERVER_URL: realtime.serverURL })
    const stt = await createSTT(config)
    const tts = await createTTS(config)
    try {
      expect(stt).toBeInstanceOf(MistralSTT)
      expect(tts).toBeInstanceOf(MistralTTS)
      await until(() => realtime.sessions.length > 0)
      expect(realtime.sessions[0]!.headers.authorization).toBe('Bearer m-demo')
    } finally {
      stt.destroy()
      tts.destroy()
      await realtime.close()
    }
  })

  it('with CARTESIA_API_KEY: CartesiaSTT and CartesiaTTS, each socket opened with the key', async () => {
    const sttServer = await createFakeCartesiaSTT()
    const ttsServer = await createFakeCartesiaTTS()
    const stt = await createSTT(
      loadConfig({ CARTESIA_API_KEY: 'c-demo', CARTESIA_BASE_URL: sttServer.baseURL })
    )
    const tts = await createTTS(
      loadConfig({ CARTESIA_API_KEY: 'c-demo', CARTESIA_BASE_URL: ttsServer.baseURL })
    )
    try {
      expect(stt).toBeInstanceOf(CartesiaSTT)
      expect(tts).toBeInstanceOf(CartesiaTTS)
      await until(() => sttServer.sessions.length > 0 && ttsServer.connections.length > 0)
      expect(sttServer.sessions[0]!.headers.authorization).toBe('Bearer c-demo')
      expect(ttsServer.connections[0]!.headers.authorization).toBe('Bearer c-demo')
    } finally {
      stt.destroy()
      tts.destroy()
      await sttServer.close()
      await ttsServer.close()
    }
  })
})
