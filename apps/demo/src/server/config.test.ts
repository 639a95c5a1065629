import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DemoConfigError, loadConfig } from './config.js'

describe('loadConfig', () => {
  it('defaults to the offline pipeline on 127.0.0.1:3000 with the demo token', () => {
    expect(loadConfig({})).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      token: 'demo',
      agent: 'local',
      stt: 'local',
      tts: 'local',
    })
  })

  it('picks OpenAI, then Mistral, when their key is set', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-1', MISTRAL_API_KEY: 'm' }).agent).toBe('openai')
    expect(loadConfig({ MISTRAL_API_KEY: 'm' })).toMatchObject({
      agent: 'mistral',
      mistral: { apiKey: 'm' },
    })
    expect(loadConfig({ OPENAI_API_KEY: 'sk', OPENMIC_AGENT: 'local' }).agent).toBe('local')
  })

  it('picks speech by key too: OpenAI, then Mistral, else local; a choice overrides', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk', MISTRAL_API_KEY: 'm' })).toMatchObject({
      stt: 'openai',
      tts: 'openai',
    })
    expect(loadConfig({ MISTRAL_API_KEY: 'm' })).toMatchObject({ stt: 'mistral', tts: 'mistral' })
    // A compatible chat server alone says nothing about speech.
    expect(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' })).toMatchObject({
      agent: 'openai',
      stt: 'local',
      tts: 'local',
    })
    expect(
      loadConfig({ OPENAI_API_KEY: 'sk', OPENMIC_STT: 'local', OPENMIC_TTS: 'mock' })
    ).toMatchObject({ stt: 'local', tts: 'mock' })
    expect(() => loadConfig({ OPENMIC_TTS: 'mistral' })).toThrow(
      new DemoConfigError('OPENMIC_TTS=mistral needs MISTRAL_API_KEY.')
    )
  })

  it('picks Gladia for speech-to-text when GLADIA_API_KEY is set, whatever the other keys', () => {
    expect(loadConfig({ GLADIA_API_KEY: 'gl', OPENAI_API_KEY: 'sk' })).toMatchObject({
      stt: 'gladia',
      tts: 'openai',
      agent: 'openai',
      gladia: { apiKey: 'gl' },
    })
    expect(loadConfig({ GLADIA_API_KEY: 'gl' })).toMatchObject({ stt: 'gladia', tts: 'local' })
    expect(
      loadConfig({
        GLADIA_API_KEY: 'gl',
        GLADIA_BASE_URL: 'http://127.0.0.1:9',
        OPENMIC_STT: 'local',
      })
    ).toMatchObject({ stt: 'local', gladia: { baseURL: 'http://127.0.0.1:9' } })
    expect(() => loadConfig({ OPENMIC_STT: 'gladia' })).toThrow(
      new DemoConfigError('OPENMIC_STT=gladia needs GLADIA_API_KEY.')
    )
    // Gladia only transcribes.
    expect(() => loadConfig({ GLADIA_API_KEY: 'gl', OPENMIC_TTS: 'gladia' })).toThrow(
      DemoConfigError
    )
  })

  it('with GLADIA_API_KEY and GRADIUM_API_KEY: Gladia transcribes, Gradium speaks', () => {
    expect(loadConfig({ GLADIA_API_KEY: 'gl', GRADIUM_API_KEY: 'g' })).toMatchObject({
      stt: 'gladia',
      tts: 'gradium',
    })
  })

  it('picks Gradium speech when GRADIUM_API_KEY is set, before the other keys', () => {
    expect(
      loadConfig({ GRADIUM_API_KEY: 'g', OPENAI_API_KEY: 'sk', GRADIUM_REGION: 'us' })
    ).toMatchObject({
      agent: 'openai',
      stt: 'gradium',
      tts: 'gradium',
      gradium: { apiKey: 'g', region: 'us', voiceId: 'YTpq7expH9539ERJ' },
    })
    expect(
      loadConfig({ GRADIUM_API_KEY: 'g', OPENMIC_STT: 'openai', OPENAI_API_KEY: 'sk' })
    ).toMatchObject({ stt: 'openai', tts: 'gradium' })
    expect(loadConfig({ GRADIUM_API_KEY: 'g', GRADIUM_VOICE_ID: 'v1' }).gradium.voiceId).toBe('v1')
    expect(() => loadConfig({ OPENMIC_STT: 'gradium' })).toThrow(
      new DemoConfigError('OPENMIC_STT=gradium needs GRADIUM_API_KEY.')
    )
    expect(() => loadConfig({ GRADIUM_API_KEY: 'g', GRADIUM_REGION: 'asia' })).toThrow(
      /Invalid demo configuration:[\s\S]*gradium/
    )
  })

  it('picks ElevenLabs speech when ELEVENLABS_API_KEY is set, before the LLM providers', () => {
    expect(
      loadConfig({ ELEVENLABS_API_KEY: 'xi', OPENAI_API_KEY: 'sk', ELEVENLABS_VOICE_ID: 'v1' })
    ).toMatchObject({
      agent: 'openai',
      stt: 'elevenlabs',
      tts: 'elevenlabs',
      elevenlabs: { apiKey: 'xi', voiceId: 'v1' },
    })
    expect(loadConfig({ ELEVENLABS_API_KEY: 'xi' }).elevenlabs.voiceId).toBe('JBFqnCBsd6RMkjVDRZzb')
    expect(
      loadConfig({ ELEVENLABS_API_KEY: 'xi', OPENAI_API_KEY: 'sk', OPENMIC_STT: 'openai' })
    ).toMatchObject({ stt: 'openai', tts: 'elevenlabs' })
    expect(() => loadConfig({ OPENMIC_TTS: 'elevenlabs' })).toThrow(
      new DemoConfigError('OPENMIC_TTS=elevenlabs needs ELEVENLABS_API_KEY.')
    )
  })

  it('picks Cartesia speech when CARTESIA_API_KEY is set, after ElevenLabs and Gradium, before the LLM providers', () => {
    expect(loadConfig({ CARTESIA_API_KEY: 'c' })).toMatchObject({
      agent: 'local',
      stt: 'cartesia',
      tts: 'cartesia',
      cartesia: { apiKey: 'c', voiceId: 'e07c00bc-4134-4eae-9ea4-1a55fb45746b' },
    })
    expect(loadConfig({ CARTESIA_API_KEY: 'c', MISTRAL_API_KEY: 'm' }).tts).toBe('cartesia')
    expect(loadConfig({ CARTESIA_API_KEY: 'c', GRADIUM_API_KEY: 'g' }).tts).toBe('gradium')
    expect(
      loadConfig({
        OPENAI_API_KEY: 'sk',
        CARTESIA_API_KEY: 'c',
        CARTESIA_VOICE_ID: 'v-1',
        CARTESIA_BASE_URL: 'http://127.0.0.1:9',
        OPENMIC_STT: 'openai',
      })
    ).toMatchObject({
      stt: 'openai',
      tts: 'cartesia',
      cartesia: { voiceId: 'v-1', baseURL: 'http://127.0.0.1:9' },
    })
    expect(() => loadConfig({ OPENMIC_STT: 'cartesia' })).toThrow(
      new DemoConfigError('OPENMIC_STT=cartesia needs CARTESIA_API_KEY.')
    )
  })

  it('a speech-to-speech voice with OPENMIC_REALTIME (off by default); openai needs its key', () => {
    expect(loadConfig({}).realtime).toBe('off')
    expect(loadConfig({ OPENMIC_REALTIME: 'mock' }).realtime).toBe('mock')
    expect(
      loadConfig({
        OPENMIC_REALTIME: 'openai',
        OPENAI_API_KEY: 'sk',
        OPENAI_REALTIME_MODEL: 'gpt-realtime-mini',
        OPENAI_VOICE: 'cedar',
      })
    ).toMatchObject({
      realtime: 'openai',
      openai: { realtimeModel: 'gpt-realtime-mini', voice: 'cedar' },
    })
    expect(() => loadConfig({ OPENMIC_REALTIME: 'openai' })).toThrow(
      'OPENMIC_REALTIME=openai needs OPENAI_API_KEY.'
    )
    expect(() => loadConfig({ OPENMIC_REALTIME: 'gemini' })).toThrow(DemoConfigError)
  })

  it('says what is missing when a provider is chosen without its key', () => {
    expect(() => loadConfig({ OPENMIC_AGENT: 'openai' })).toThrow(
      new DemoConfigError(
        'OPENMIC_AGENT=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server).'
      )
    )
    expect(() => loadConfig({ OPENMIC_AGENT: 'mistral' })).toThrow(/needs MISTRAL_API_KEY/)
  })

  it('uses an AI SDK model of an OpenAI-compatible server when OPENMIC_AGENT=ai-sdk', () => {
    const env = {
      OPENMIC_AGENT: 'ai-sdk',
      AI_SDK_BASE_URL: 'http://127.0.0.1:11434/v1',
      AI_SDK_MODEL: 'llama3.2',
    }
    expect(loadConfig(env)).toMatchObject({
      agent: 'ai-sdk',
      aiSdk: { baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.2' },
      stt: 'local',
      tts: 'local',
    })
    expect(loadConfig({ ...env, AI_SDK_API_KEY: 'k' }).aiSdk.apiKey).toBe('k')
    // Never picked by `auto`: a server URL alone does not say which agent to use.
    expect(loadConfig({ AI_SDK_BASE_URL: env.AI_SDK_BASE_URL, AI_SDK_MODEL: 'm' }).agent).toBe(
      'local'
    )
    expect(() => loadConfig({ OPENMIC_AGENT: 'ai-sdk', AI_SDK_MODEL: 'llama3.2' })).toThrow(
      new DemoConfigError(
        'OPENMIC_AGENT=ai-sdk needs AI_SDK_BASE_URL (e.g. http://127.0.0.1:11434/v1) and AI_SDK_MODEL.'
      )
    )
    expect(() => loadConfig({ ...env, AI_SDK_BASE_URL: 'not a url' })).toThrow(DemoConfigError)
  })

  it('rejects invalid values with a readable message', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/Invalid demo configuration:[\s\S]*port/)
    expect(() => loadConfig({ OPENMIC_AGENT: 'gpt' })).toThrow(DemoConfigError)
  })

  it('reads a JSON config file, which the environment overrides', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openmic-demo-'))
    const path = join(dir, 'openmic.config.json')
    writeFileSync(
      path,
      JSON.stringify({ port: 4000, token: 'secret', openai: { model: 'gpt-test' } })
    )
    expect(
      loadConfig({ OPENMIC_CONFIG: path, OPENMIC_TOKEN: 'env-token', OPENAI_API_KEY: 'k' })
    ).toMatchObject({
      port: 4000,
      token: 'env-token',
      agent: 'openai',
      openai: { model: 'gpt-test', apiKey: 'k' },
    })
    writeFileSync(path, '[1,2]')
    expect(() => loadConfig({ OPENMIC_CONFIG: path })).toThrow(/not a JSON object/)
    expect(() => loadConfig({ OPENMIC_CONFIG: join(dir, 'missing.json') })).toThrow(
      /Cannot read OPENMIC_CONFIG/
    )
  })

  it('turns phone calls on with TWILIO_AUTH_TOKEN, which needs the public origin', () => {
    expect(loadConfig({})).toMatchObject({ twilio: {} })
    expect(loadConfig({}).publicUrl).toBeUndefined()
    expect(
      loadConfig({
        TWILIO_ACCOUNT_SID: 'AC123',
        TWILIO_AUTH_TOKEN: 'token',
        TWILIO_API_BASE_URL: 'http://127.0.0.1:9',
        OPENMIC_PUBLIC_URL: 'https://voice.example.com/',
      })
    ).toMatchObject({
      twilio: { accountSid: 'AC123', authToken: 'token', apiBaseUrl: 'http://127.0.0.1:9' },
      publicUrl: 'https://voice.example.com',
    })
    expect(() => loadConfig({ TWILIO_AUTH_TOKEN: 'token' })).toThrow(/needs OPENMIC_PUBLIC_URL/)
    expect(() =>
      loadConfig({ TWILIO_AUTH_TOKEN: 't', OPENMIC_PUBLIC_URL: 'https://example.com/voice' })
    ).toThrow(/without a path/)
    expect(() => loadConfig({ OPENMIC_PUBLIC_URL: 'ftp://example.com' })).toThrow(/http\(s\)/)
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'SK123' })).toThrow(/starts with AC/)
  })
})
