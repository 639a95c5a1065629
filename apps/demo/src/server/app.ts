import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import fastifyWebsocket from '@fastify/websocket'
import {
  handleError,
  MemoryConversationStore,
  MicdropCalls,
  MicdropError,
  MicdropErrorCode,
  MicdropServer,
  waitForParams,
  type ConversationStore,
} from '@openmic/server'
import { instrumentCall } from '@openmic/otel'
import Fastify, { type FastifyInstance } from 'fastify'
import {
  createCallParts,
  defaultFactories,
  warnOnStoreError,
  type CallFactories,
} from './call-parts.js'
import type { DemoConfig } from './config.js'
import { phoneRoutes } from './phone/phone-routes.js'
import { createTelemetry } from './telemetry.js'

export type { CallFactories } from './call-parts.js'

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public')
const require = createRequire(import.meta.url)

/** Largest frame accepted from a client: 100 ms audio chunks are 3 200 bytes. */
const MAX_FRAME_BYTES = 64 * 1024

/**
 * The demo server: the web page, the Silero VAD files (served from here, never a CDN) and the
 * `/call` WebSocket, one `MicdropServer` per call once the page sent the right token; with
 * Twilio configured, the phone endpoints (`/twilio/voice`, `/twilio/stream`). `store` replaces
 * the configured conversation store (tests read it).
 */
export async function buildApp(
  config: DemoConfig,
  factories: CallFactories = defaultFactories,
  calls: MicdropCalls = new MicdropCalls(),
  store?: ConversationStore
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, forceCloseConnections: true })
  if (!store) {
    const created = (store = await createStore(config))
    app.addHook('onClose', async () => {
      await (created as { close?: () => Promise<void> }).close?.()
    })
  }
  const conversations = store
  const telemetry = await createTelemetry(config)
  app.addHook('onClose', async () => {
    // The calls' sockets were just closed: their last turns are traced as they end, then flushed
    await callsEnded(calls, CALLS_END_WAIT_MS)
    await telemetry.shutdown()
  })
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES } })
  await app.register(fastifyStatic, { root: publicDir })
  await app.register(fastifyStatic, {
    root: dirname(require.resolve('@ricky0123/vad-web/dist/silero_vad_v5.onnx')),
    prefix: '/vad/',
    decorateReply: false,
  })
  await app.register(fastifyStatic, {
    root: dirname(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm')),
    prefix: '/ort/',
    decorateReply: false,
  })

  app.get('/config.json', async () => ({
    agent: config.agent,
    stt: config.stt,
    tts: config.tts,
    ...(config.realtime !== 'off' ? { realtime: config.realtime } : {}),
  }))

  const prometheusHandler = telemetry.prometheusHandler
  if (prometheusHandler) {
    app.get('/metrics', (request, reply) => {
      reply.hijack()
      prometheusHandler(request.raw, reply.raw)
    })
  }

  app.get('/call', { websocket: true }, async (socket) => {
    try {
      const params = await waitForParams(
        socket,
        (params: { token?: unknown; conversationId?: unknown }) => {
          if (params?.token !== config.token) {
            throw new MicdropError(MicdropErrorCode.Unauthorized, 'Invalid token')
          }
          const { conversationId } = params
          if (conversationId !== undefined && !isConversationId(conversationId)) {
            throw new MicdropError(MicdropErrorCode.BadRequest, 'Invalid conversationId')
          }
          return { conversationId }
        }
      )
      const call = new MicdropServer(socket, {
        ...(await createCallParts(factories, config)),
        generateFirstMessage: true,
        sendMetrics: config.metrics,
        maxFrameBytes: MAX_FRAME_BYTES,
        // A call with an id is kept: it resumes after a drop or a restart (with Redis, anywhere).
        ...(params.conversationId
          ? { store: conversations, conversationId: params.conversationId }
          : {}),
      })
      warnOnStoreError(call)
      instrumentCall(call, { ...telemetry.providers, conversationId: params.conversationId })
      calls.add(call)
    } catch (error) {
      handleError(socket, error)
    }
  })

  await app.register(phoneRoutes, {
    config,
    factories,
    calls,
    store: conversations,
    instrument: (call) => instrumentCall(call, telemetry.providers),
  })

  return app
}

/** How long a shutdown waits for the calls whose sockets it closed to end, before flushing. */
const CALLS_END_WAIT_MS = 2000

/** Resolves once no call is left (or after `maxMs`). */
async function callsEnded(calls: MicdropCalls, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs
  while (calls.size > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

function isConversationId(value: unknown): value is string {
  return typeof value === 'string' && /^[\w-]{1,100}$/.test(value)
}

/** Redis when `REDIS_URL` is set (calls move between instances), else this process's memory. */
async function createStore(config: DemoConfig): Promise<ConversationStore> {
  if (!config.redisUrl) return new MemoryConversationStore()
  const { RedisConversationStore } = await import('@openmic/redis')
  return new RedisConversationStore({ redis: config.redisUrl, ttlSeconds: 6 * 3600 })
}
