// The demo with telemetry options, and one call with a user turn, for the telemetry tests.
import type { AddressInfo } from 'node:net'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'
import { buildApp } from '../src/server/app.js'
import { loadConfig } from '../src/server/config.js'

/** The demo on 127.0.0.1 with mock providers and `env` (token `secret`); `base` is its host:port. */
export async function startDemo(
  env: NodeJS.ProcessEnv
): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp(
    loadConfig({
      OPENMIC_AGENT: 'mock',
      OPENMIC_STT: 'mock',
      OPENMIC_TTS: 'mock',
      OPENMIC_TOKEN: 'secret',
      ...env,
    })
  )
  await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, base: `127.0.0.1:${(app.server.address() as AddressInfo).port}` }
}

/** 100 ms of PCM16 16 kHz. */
const CHUNK = Buffer.alloc(3200, 1)

/**
 * One call on the demo: the greeting, then one user turn; resolves with the turn's `Metrics`
 * frame once it came (the demo sends them to the page).
 */
export async function oneTurn(base: string, token = 'secret'): Promise<MicdropTurnMetrics> {
  const socket = new WebSocket(`ws://${base}/call`)
  socket.on('open', () => socket.send(JSON.stringify({ token })))
  let spoke = false
  const metrics = await new Promise<MicdropTurnMetrics>((resolve) => {
    socket.on('message', (data, isBinary) => {
      // The greeting's audio came: the user speaks once.
      if (isBinary && !spoke) {
        spoke = true
        socket.send('StartSpeaking')
        for (let i = 0; i < 5; i++) socket.send(CHUNK)
        socket.send('StopSpeaking')
      }
      const text = isBinary ? '' : data.toString()
      if (text.startsWith('Metrics ')) resolve(JSON.parse(text.slice('Metrics '.length)))
    })
  })
  socket.close()
  return metrics
}
