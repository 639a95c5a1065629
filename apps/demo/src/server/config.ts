import { readFileSync } from 'node:fs'
import { z } from 'zod'

/** A Cartesia voice for the demo when CARTESIA_VOICE_ID names none (the one the SDK's README uses). */
const DEFAULT_CARTESIA_VOICE = 'e07c00bc-4134-4eae-9ea4-1a55fb45746b'

const Provider = z.object({
  apiKey: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  baseURL: z.string().url().optional(),
})

/** OpenAI: its speech-to-speech model and voice too. */
const OpenaiProvider = Provider.extend({
  realtimeModel: z.string().min(1).optional(),
  voice: z.string().min(1).optional(),
})

const DemoConfigSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.coerce.number().int().min(0).max(65535).default(3000),
  /** The token the page must send as a call parameter. */
  token: z.string().min(1).default('demo'),
  /**
   * `auto`: OpenAI when OPENAI_API_KEY is set, else Mistral when MISTRAL_API_KEY is set, else
   * local. `ai-sdk`: an AI SDK model of the OpenAI-compatible server at `aiSdk.baseURL`. `mock`:
   * core's MockAgent, answering with the turn number (for tests).
   */
  agent: z.enum(['auto', 'openai', 'mistral', 'ai-sdk', 'local', 'mock']).default('auto'),
  /**
   * `auto`: a speech provider's own key first (ElevenLabs, then Gradium, then Cartesia: a
   * speech-only key says what it is for), else OpenAI's speech when OPENAI_API_KEY is set, else
   * Mistral's when MISTRAL_API_KEY is set, else local (pocketsphinx / flite). `mock`: core's mocks.
   * Speech-to-text only: `gladia`, which `auto` picks first for speech-to-text when GLADIA_API_KEY
   * is set (that key serves nothing else).
   */
  stt: z
    .enum([
      'auto',
      'elevenlabs',
      'gradium',
      'gladia',
      'cartesia',
      'openai',
      'mistral',
      'local',
      'mock',
    ])
    .default('auto'),
  tts: z
    .enum(['auto', 'elevenlabs', 'gradium', 'cartesia', 'openai', 'mistral', 'local', 'mock'])
    .default('auto'),
  /**
   * A speech-to-speech model as the call's voice, in place of the agent, STT and TTS: `openai`
   * (`OpenaiRealtime`, `gpt-realtime` by default: `OPENAI_REALTIME_MODEL`), or `mock` (core's
   * MockRealtime, for tests). `off` (default): the agent, STT and TTS above.
   */
  realtime: z.enum(['off', 'openai', 'mock']).default('off'),
  /** Send each turn's latency to the page (`Metrics` messages). */
  metrics: z.coerce.boolean().default(true),
  /** Serve the calls' OpenTelemetry metrics for Prometheus to scrape, on `GET /metrics`. */
  prometheus: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
    .transform((value) => value === true || value === 'true' || value === '1')
    .default(false),
  /** OTLP/HTTP endpoint for traces and metrics (the SDK's `OTEL_EXPORTER_OTLP_ENDPOINT`). */
  otlpEndpoint: z.string().url().optional(),
  /** Where conversations are kept (so calls survive a restart, on any instance); else in memory. */
  redisUrl: z.string().url().optional(),
  /** On SIGTERM: how long answers in progress may take before their calls are closed (1012). */
  drainDeadlineMs: z.coerce.number().int().min(0).default(20_000),
  openai: OpenaiProvider.default({}),
  mistral: Provider.extend({ serverURL: z.string().url().optional() }).default({}),
  gradium: z
    .object({
      apiKey: z.string().min(1).optional(),
      region: z.enum(['eu', 'us']).optional(),
      baseURL: z.string().url().optional(),
      /** Default: Emma (`YTpq7expH9539ERJ`), a flagship voice of Gradium's library. */
      voiceId: z.string().min(1).default('YTpq7expH9539ERJ'),
    })
    .default({ voiceId: 'YTpq7expH9539ERJ' }),
  /** ElevenLabs speech: `voiceId` defaults to a premade voice (George). */
  elevenlabs: z
    .object({
      apiKey: z.string().min(1).optional(),
      voiceId: z.string().min(1).default('JBFqnCBsd6RMkjVDRZzb'),
      baseURL: z.string().url().optional(),
    })
    .default({ voiceId: 'JBFqnCBsd6RMkjVDRZzb' }),
  /** `OPENMIC_AGENT=ai-sdk`: any OpenAI-compatible server (Ollama, vLLM, LM Studio, ...). */
  aiSdk: Provider.default({}),
  gladia: Provider.omit({ model: true }).default({}),
  /** Cartesia speech: Ink transcription and Sonic voices (`voiceId`: a Cartesia voice's id). */
  cartesia: Provider.extend({
    voiceId: z.string().min(1).default(DEFAULT_CARTESIA_VOICE),
  }).default({ voiceId: DEFAULT_CARTESIA_VOICE }),
  /**
   * Phone calls through a Twilio number: on when `authToken` is set (it checks the webhooks'
   * signatures); with `accountSid` too, the call is hung up through the REST API after the goodbye.
   */
  twilio: z
    .object({
      accountSid: z
        .string()
        .regex(/^AC\w+$/, 'a Twilio account SID starts with AC')
        .optional(),
      authToken: z.string().min(1).optional(),
      /** Where the REST API is (default Twilio's own): a fake of it in tests. */
      apiBaseUrl: z.string().url().optional(),
    })
    .default({}),
  /**
   * The public origin Twilio reaches this server at (`https://host`, e.g. a tunnel's): the URL
   * its webhooks are signed for, and the `wss://` origin of the Media Stream it is told to open.
   */
  publicUrl: z
    .string()
    .url()
    .refine((url) => /^https?:$/.test(new URL(url).protocol), 'an http(s) URL')
    .refine((url) => new URL(url).pathname === '/' && !new URL(url).search, {
      message: 'an origin only (scheme, host, port), without a path',
    })
    .transform((url) => new URL(url).origin)
    .optional(),
})

/** Where speech comes from, once `auto` is resolved. */
export type SpeechProvider =
  'elevenlabs' | 'gradium' | 'cartesia' | 'openai' | 'mistral' | 'local' | 'mock'

/** Where speech-to-text comes from: speech providers, and those that only transcribe. */
export type STTProvider = SpeechProvider | 'gladia'

export type DemoConfig = Omit<z.infer<typeof DemoConfigSchema>, 'agent' | 'stt' | 'tts'> & {
  agent: 'openai' | 'mistral' | 'ai-sdk' | 'local' | 'mock'
  stt: STTProvider
  tts: SpeechProvider
}

/** The demo's configuration is wrong; the message says what and how to fix it. */
export class DemoConfigError extends Error {
  override readonly name = 'DemoConfigError'
}

/**
 * Reads the configuration: defaults, then the JSON file named by `OPENMIC_CONFIG` (if any), then
 * environment variables (`OPENMIC_HOST`, `PORT`, `OPENMIC_TOKEN`, `OPENMIC_AGENT`, `OPENMIC_STT`,
 * `OPENMIC_TTS`, `OPENMIC_REALTIME`, `REDIS_URL`, `OPENMIC_PROMETHEUS`, `OTEL_EXPORTER_OTLP_ENDPOINT`, `OPENMIC_DRAIN_DEADLINE_MS`, `OPENAI_API_KEY`, `OPENAI_MODEL`, `OPENAI_BASE_URL`,
 * `OPENAI_REALTIME_MODEL`, `OPENAI_VOICE`, `MISTRAL_API_KEY`,
 * `MISTRAL_MODEL`, `MISTRAL_SERVER_URL`, `AI_SDK_BASE_URL`, `AI_SDK_MODEL`, `AI_SDK_API_KEY`,
 * `ELEVENLABS_API_KEY`, `ELEVENLABS_VOICE_ID`, `ELEVENLABS_BASE_URL`, `GRADIUM_API_KEY`,
 * `GRADIUM_REGION`, `GRADIUM_BASE_URL`, `GRADIUM_VOICE_ID`, `GLADIA_API_KEY`, `GLADIA_BASE_URL`,
 * `CARTESIA_API_KEY`, `CARTESIA_BASE_URL`, `CARTESIA_VOICE_ID`, `TWILIO_ACCOUNT_SID`,
 * `TWILIO_AUTH_TOKEN`, `TWILIO_API_BASE_URL`, `OPENMIC_PUBLIC_URL`).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): DemoConfig {
  const file = env.OPENMIC_CONFIG ? readConfigFile(env.OPENMIC_CONFIG) : {}
  const fromEnv = prune({
    host: env.OPENMIC_HOST,
    port: env.PORT ?? env.OPENMIC_PORT,
    token: env.OPENMIC_TOKEN,
    agent: env.OPENMIC_AGENT,
    stt: env.OPENMIC_STT,
    tts: env.OPENMIC_TTS,
    realtime: env.OPENMIC_REALTIME,
    redisUrl: env.REDIS_URL,
    prometheus: env.OPENMIC_PROMETHEUS,
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    drainDeadlineMs: env.OPENMIC_DRAIN_DEADLINE_MS,
    openai: prune({
      apiKey: env.OPENAI_API_KEY,
      model: env.OPENAI_MODEL,
      baseURL: env.OPENAI_BASE_URL,
      realtimeModel: env.OPENAI_REALTIME_MODEL,
      voice: env.OPENAI_VOICE,
    }),
    mistral: prune({
      apiKey: env.MISTRAL_API_KEY,
      model: env.MISTRAL_MODEL,
      serverURL: env.MISTRAL_SERVER_URL,
    }),
    gradium: prune({
      apiKey: env.GRADIUM_API_KEY,
      region: env.GRADIUM_REGION,
      baseURL: env.GRADIUM_BASE_URL,
      voiceId: env.GRADIUM_VOICE_ID,
    }),
    elevenlabs: prune({
      apiKey: env.ELEVENLABS_API_KEY,
      voiceId: env.ELEVENLABS_VOICE_ID,
      baseURL: env.ELEVENLABS_BASE_URL,
    }),
    aiSdk: prune({
      apiKey: env.AI_SDK_API_KEY,
      model: env.AI_SDK_MODEL,
      baseURL: env.AI_SDK_BASE_URL,
    }),
    gladia: prune({ apiKey: env.GLADIA_API_KEY, baseURL: env.GLADIA_BASE_URL }),
    cartesia: prune({
      apiKey: env.CARTESIA_API_KEY,
      baseURL: env.CARTESIA_BASE_URL,
      voiceId: env.CARTESIA_VOICE_ID,
    }),
    twilio: prune({
      accountSid: env.TWILIO_ACCOUNT_SID,
      authToken: env.TWILIO_AUTH_TOKEN,
      apiBaseUrl: env.TWILIO_API_BASE_URL,
    }),
    publicUrl: env.OPENMIC_PUBLIC_URL,
  })
  const merged = {
    ...file,
    ...fromEnv,
    openai: { ...(file.openai as object), ...(fromEnv.openai as object) },
    mistral: { ...(file.mistral as object), ...(fromEnv.mistral as object) },
    gradium: { ...(file.gradium as object), ...(fromEnv.gradium as object) },
    elevenlabs: { ...(file.elevenlabs as object), ...(fromEnv.elevenlabs as object) },
    aiSdk: { ...(file.aiSdk as object), ...(fromEnv.aiSdk as object) },
    gladia: { ...(file.gladia as object), ...(fromEnv.gladia as object) },
    cartesia: { ...(file.cartesia as object), ...(fromEnv.cartesia as object) },
    twilio: { ...(file.twilio as object), ...(fromEnv.twilio as object) },
  }
  const parsed = DemoConfigSchema.safeParse(merged)
  if (!parsed.success)
    throw new DemoConfigError(`Invalid demo configuration:\n${z.prettifyError(parsed.error)}`)
  if (parsed.data.twilio.authToken && !parsed.data.publicUrl) {
    throw new DemoConfigError(
      'TWILIO_AUTH_TOKEN needs OPENMIC_PUBLIC_URL: the https:// origin Twilio reaches this server ' +
        'at (e.g. a tunnel to its port), which webhooks are signed for.'
    )
  }
  if (parsed.data.realtime === 'openai' && !parsed.data.openai.apiKey) {
    throw new DemoConfigError('OPENMIC_REALTIME=openai needs OPENAI_API_KEY.')
  }
  return {
    ...parsed.data,
    agent: resolveAgent(parsed.data),
    stt: resolveSTT(parsed.data),
    tts: resolveSpeech('TTS', parsed.data.tts, parsed.data),
  }
}

/**
 * Speech follows the keys: a compatible server named by OPENAI_BASE_URL alone may serve chat but
 * not speech, so `auto` picks a cloud provider only when its API key is set.
 */
function resolveSpeech(
  kind: 'STT' | 'TTS',
  choice: Exclude<z.infer<typeof DemoConfigSchema>['stt'], 'gladia'>,
  config: z.infer<typeof DemoConfigSchema>
): SpeechProvider {
  if (choice === 'auto') {
    // A speech provider's key is set for its speech: it comes before the LLM providers'.
    if (config.elevenlabs.apiKey) return 'elevenlabs'
    if (config.gradium.apiKey) return 'gradium'
    if (config.cartesia.apiKey) return 'cartesia'
    if (config.openai.apiKey) return 'openai'
    if (config.mistral.apiKey) return 'mistral'
    return 'local'
  }
  if (choice === 'cartesia' && !config.cartesia.apiKey) {
    throw new DemoConfigError(`OPENMIC_${kind}=cartesia needs CARTESIA_API_KEY.`)
  }
  if (choice === 'openai' && !config.openai.apiKey && !config.openai.baseURL) {
    throw new DemoConfigError(`OPENMIC_${kind}=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL).`)
  }
  if (choice === 'mistral' && !config.mistral.apiKey) {
    throw new DemoConfigError(`OPENMIC_${kind}=mistral needs MISTRAL_API_KEY.`)
  }
  if (choice === 'gradium' && !config.gradium.apiKey) {
    throw new DemoConfigError(`OPENMIC_${kind}=gradium needs GRADIUM_API_KEY.`)
  }
  if (choice === 'elevenlabs' && !config.elevenlabs.apiKey) {
    throw new DemoConfigError(`OPENMIC_${kind}=elevenlabs needs ELEVENLABS_API_KEY.`)
  }
  return choice
}

/** Speech-to-text: the STT-only providers first, then as speech. */
function resolveSTT(config: z.infer<typeof DemoConfigSchema>): STTProvider {
  if (config.stt === 'gladia' || (config.stt === 'auto' && config.gladia.apiKey)) {
    if (!config.gladia.apiKey) throw new DemoConfigError('OPENMIC_STT=gladia needs GLADIA_API_KEY.')
    return 'gladia'
  }
  return resolveSpeech('STT', config.stt, config)
}

function resolveAgent(config: z.infer<typeof DemoConfigSchema>): DemoConfig['agent'] {
  if (config.agent === 'auto') {
    if (config.openai.apiKey || config.openai.baseURL) return 'openai'
    if (config.mistral.apiKey) return 'mistral'
    return 'local'
  }
  if (config.agent === 'openai' && !config.openai.apiKey && !config.openai.baseURL) {
    throw new DemoConfigError(
      'OPENMIC_AGENT=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server).'
    )
  }
  if (config.agent === 'mistral' && !config.mistral.apiKey) {
    throw new DemoConfigError('OPENMIC_AGENT=mistral needs MISTRAL_API_KEY.')
  }
  if (config.agent === 'ai-sdk' && (!config.aiSdk.baseURL || !config.aiSdk.model)) {
    throw new DemoConfigError(
      'OPENMIC_AGENT=ai-sdk needs AI_SDK_BASE_URL (e.g. http://127.0.0.1:11434/v1) and AI_SDK_MODEL.'
    )
  }
  return config.agent
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new DemoConfigError(
      `Cannot read OPENMIC_CONFIG file ${path}: ${(error as Error).message}`
    )
  }
  try {
    const json = JSON.parse(text) as unknown
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw new Error('not a JSON object')
    return json as Record<string, unknown>
  } catch (error) {
    throw new DemoConfigError(
      `OPENMIC_CONFIG file ${path} is not a JSON object: ${(error as Error).message}`
    )
  }
}

function prune(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(object).filter(
      ([, value]) =>
        value !== undefined &&
        value !== '' &&
        !(typeof value === 'object' && value !== null && Object.keys(value).length === 0)
    )
  )
}
