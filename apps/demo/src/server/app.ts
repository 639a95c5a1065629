import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import fastifyWebsocket from '@fastify/websocket'
import type { Agent, STT, TTS } from '@openmic/core'
import {
  handleError,
  MicdropError,
  MicdropErrorCode,
  MicdropServer,
  waitForParams,
} from '@openmic/server'
import Fastify, { type FastifyInstance } from 'fastify'
import type { DemoConfig } from './config.js'
import { createAgent, createSTT, createTTS } from './providers.js'

/** What a call is built from; tests replace them. */
export interface CallFactories {
  createAgent(config: DemoConfig): Promise<Agent>
  createSTT(config: DemoConfig): Promise<STT>
  createTTS(config: DemoConfig): Promise<TTS>
}

const defaultFactories: CallFactories = { createAgent, createSTT, createTTS }

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public')
const require = createRequire(import.meta.url)

/** Largest frame accepted from a client: 100 ms audio chunks are 3 200 bytes. */
const MAX_FRAME_BYTES = 64 * 1024

/**
 * The demo server: the web page, the Silero VAD files (served from here, never a CDN) and the
 * `/call` WebSocket, one `MicdropServer` per call once the page sent the right token.
 */
export async function buildApp(
  config: DemoConfig,
  factories: CallFactories = defaultFactories
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, forceCloseConnections: true })
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

  app.get('/config.json', async () => ({ agent: config.agent, stt: config.stt, tts: config.tts }))

  app.get('/call', { websocket: true }, async (socket) => {
    try {
      await waitForParams(socket, (params: { token?: unknown }) => {
        if (params?.token !== config.token) {
          throw new MicdropError(MicdropErrorCode.Unauthorized, 'Invalid token')
        }
        return params
      })
      const [agent, stt, tts] = await Promise.all([
        factories.createAgent(config),
        factories.createSTT(config),
        factories.createTTS(config),
      ])
      new MicdropServer(socket, {
        agent,
        stt,
        tts,
        generateFirstMessage: true,
        sendMetrics: config.metrics,
        maxFrameBytes: MAX_FRAME_BYTES,
      })
    } catch (error) {
      handleError(socket, error)
    }
  })

  return app
}
