import { CartesiaSTT, CartesiaTTS } from '@openmic/cartesia'
import { AiSdkAgent } from '@openmic/ai-sdk'
import { ElevenLabsSTT, ElevenLabsTTS } from '@openmic/elevenlabs'
import { GladiaSTT } from '@openmic/gladia'
import { GradiumSTT, GradiumTTS } from '@openmic/gradium'
import { LocalAgent, LocalSTT, LocalTTS } from '@openmic/local'
import { MistralSTT, MistralTTS } from '@openmic/mistral'
import { OpenaiSTT, OpenaiTTS } from '@openmic/openai'
import {
  createFakeCartesiaSTT,
  createFakeCartesiaTTS,
  createFakeGladiaLive,
  createFakeGradiumSTT,
  createFakeGradiumTTS,
  createFakeElevenLabsSTT,
  createFakeElevenLabsTTS,
  createFakeMistralRealtime,
  createFakeOpenAI,
  createFakeOpenaiRealtime,
} from '@openmic/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadConfig } from './config.js'
import { createAgent, createSTT, createTTS, warmUpProviders } from './providers.js'

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

  it('with GLADIA_API_KEY: GladiaSTT (its live session created with the key)', async () => {
    const live = await createFakeGladiaLive()
    const config = loadConfig({ GLADIA_API_KEY: 'gl-demo', GLADIA_BASE_URL: live.baseURL })
    const stt = await createSTT(config)
    try {
      expect(stt).toBeInstanceOf(GladiaSTT)
      await until(() => live.initRequests.length > 0)
      expect(live.initRequests[0]!.headers['x-gladia-key']).toBe('gl-demo')
    } finally {
      stt.destroy()
      await live.close()
    }
  })

  it('with GRADIUM_API_KEY: GradiumSTT and GradiumTTS (their sockets opened with the key)', async () => {
    const asr = await createFakeGradiumSTT()
    const speech = await createFakeGradiumTTS()
    const stt = await createSTT(
      loadConfig({ GRADIUM_API_KEY: 'g-demo', GRADIUM_BASE_URL: asr.baseURL })
    )
    const tts = await createTTS(
      loadConfig({ GRADIUM_API_KEY: 'g-demo', GRADIUM_BASE_URL: speech.baseURL })
    )
    try {
      expect(stt).toBeInstanceOf(GradiumSTT)
      expect(tts).toBeInstanceOf(GradiumTTS)
      await until(() => asr.sessions.length > 0 && speech.sessions.length > 0)
      expect(asr.sessions[0]!.headers['x-api-key']).toBe('g-demo')
      expect(speech.sessions[0]!.headers['x-api-key']).toBe('g-demo')
    } finally {
      stt.destroy()
      tts.destroy()
      await asr.close()
      await speech.close()
    }
  })

  it('with ELEVENLABS_API_KEY: ElevenLabsSTT and ElevenLabsTTS, their sockets opened with the key and the voice', async () => {
    const scribe = await createFakeElevenLabsSTT()
    const speech = await createFakeElevenLabsTTS()
    const env = { ELEVENLABS_API_KEY: 'xi-demo', ELEVENLABS_VOICE_ID: 'voice-demo' }
    const stt = await createSTT(loadConfig({ ...env, ELEVENLABS_BASE_URL: scribe.baseURL }))
    const tts = await createTTS(loadConfig({ ...env, ELEVENLABS_BASE_URL: speech.baseURL }))
    try {
      expect(stt).toBeInstanceOf(ElevenLabsSTT)
      expect(tts).toBeInstanceOf(ElevenLabsTTS)
      await until(() => scribe.sessions.length > 0 && speech.connections.length > 0)
      expect(scribe.sessions[0]!.headers['xi-api-key']).toBe('xi-demo')
      expect(speech.connections[0]!.headers['xi-api-key']).toBe('xi-demo')
      expect(speech.connections[0]!.voiceId).toBe('voice-demo')
    } finally {
      stt.destroy()
      tts.destroy()
      await scribe.close()
      await speech.close()
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

describe('warm-up at start', () => {
  afterEach(() => vi.restoreAllMocks())

  const spyWarmUps = () => ({
    stt: vi.spyOn(LocalSTT, 'warmUp').mockResolvedValue(),
    tts: vi.spyOn(LocalTTS, 'warmUp').mockResolvedValue(),
    agent: vi.spyOn(LocalAgent, 'warmUp').mockResolvedValue(),
  })

  it('loads the offline providers the configuration uses, and only those', async () => {
    const offline = spyWarmUps()
    const all = warmUpProviders(loadConfig({}))
    await Promise.all([all.greeting, all.firstTurn])
    expect(offline.tts).toHaveBeenCalledOnce()
    expect(offline.stt).toHaveBeenCalledOnce()
    expect(offline.agent).toHaveBeenCalledOnce()

    vi.clearAllMocks()
    const mocks = warmUpProviders(loadConfig({ OPENMIC_STT: 'mock', OPENMIC_AGENT: 'mock' }))
    await Promise.all([mocks.greeting, mocks.firstTurn])
    expect(offline.tts).toHaveBeenCalledOnce()
    expect(offline.stt).not.toHaveBeenCalled()
    expect(offline.agent).not.toHaveBeenCalled()
  })

  it('is ready for a greeting before the recognizer has loaded its model', async () => {
    const offline = spyWarmUps()
    offline.stt.mockReturnValue(new Promise(() => {}))
    await expect(warmUpProviders(loadConfig({})).greeting).resolves.toBeUndefined()
  })

  it('reports a failure where it is awaited', async () => {
    const offline = spyWarmUps()
    offline.stt.mockRejectedValue(new Error('no model'))
    const warmUp = warmUpProviders(loadConfig({}))
    await warmUp.greeting
    await expect(warmUp.firstTurn).rejects.toThrow('no model')
  })
})
