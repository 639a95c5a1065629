import { AiSdkAgent } from '@openmic/ai-sdk'
import { MistralSTT, MistralTTS } from '@openmic/mistral'
import { OpenaiSTT, OpenaiTTS } from '@openmic/openai'
import {
  createFakeMistralRealtime,
  createFakeOpenAI,
  createFakeOpenaiRealtime,
} from '@openmic/testing'
import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.js'
import { createAgent, createSTT, createTTS } from './providers.js'

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
})

describe('agent by configuration', () => {
  it('with OPENMIC_AGENT=ai-sdk: AiSdkAgent on the compatible server, with its model and key', async () => {
    const server = await createFakeOpenAI()
    try {
      const config = loadConfig({
        OPENMIC_AGENT: 'ai-sdk',
        AI_SDK_BASE_URL: server.baseURL,
        AI_SDK_MODEL: 'llama3.2',
        AI_SDK_API_KEY: 'ollama',
      })
      const agent = await createAgent(config)
      expect(agent).toBeInstanceOf(AiSdkAgent)
      server.replyText('Hello ', 'there!')
      agent.addUserMessage('Hi')
      let text = ''
      for await (const chunk of agent.answer()) text += String(chunk)
      expect(text).toBe('Hello there!')
      const request = server.requests[0]!
      expect(request.path).toBe('/v1/chat/completions')
      expect(request.headers.authorization).toBe('Bearer ollama')
      expect(request.body).toMatchObject({ model: 'llama3.2', stream: true })
    } finally {
      await server.close()
    }
  })
})
