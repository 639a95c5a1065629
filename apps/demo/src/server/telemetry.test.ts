import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from './app.js'
import { loadConfig } from './config.js'
import { oneTurn, startDemoWithPrometheus } from '../../test/metrics-demo.js'

describe('the demo server with OPENMIC_PROMETHEUS', () => {
  let app: FastifyInstance
  let base: string

  beforeAll(async () => {
    ;({ app, base } = await startDemoWithPrometheus())
  })

  afterAll(() => app.close())

  it('serves a turn latency on /metrics, the same as the Metrics frame', async () => {
    const metrics = await oneTurn(base)
    const response = await fetch(`http://${base}/metrics`)
    expect(response.status).toBe(200)
    const text = await response.text()
    const sum = text.match(/^openmic_turn_voice_to_voice\w*_sum\{[^}]*\} (\S+)$/m)
    const count = text.match(/^openmic_turn_voice_to_voice\w*_count\{[^}]*\} (\S+)$/m)
    expect([Number(count?.[1]), Number(sum?.[1])]).toEqual([1, metrics.endToEndMs])
    expect(text).toMatch(/^openmic_turns\w*\{[^}]*openmic_transport="MicdropServer"[^}]*\} 1$/m)
  })
})

describe('the demo server without telemetry options', () => {
  it('has no /metrics', async () => {
    const app = await buildApp(loadConfig({ OPENMIC_STT: 'mock', OPENMIC_TTS: 'mock' }))
    try {
      expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404)
    } finally {
      await app.close()
    }
  })
})
