import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from './app.js'
import { loadConfig } from './config.js'
import { oneTurn, startDemo } from '../../test/metrics-demo.js'

describe('the demo server with OPENMIC_PROMETHEUS', () => {
  let app: FastifyInstance
  let base: string

  beforeAll(async () => {
    ;({ app, base } = await startDemo({ OPENMIC_PROMETHEUS: 'true' }))
  })

  afterAll(() => app.close())

  it('serves a turn latency on /metrics, the same as the Metrics frame', async () => {
    const metrics = await oneTurn(base)
    const scrape = async () => {
      const response = await fetch(`http://${base}/metrics`)
      expect(response.status).toBe(200)
      return response.text()
    }
    // The latency is recorded at the Metrics frame.
    const text = await scrape()
    const sum = text.match(/^openmic_turn_voice_to_voice\w*_sum\{[^}]*\} (\S+)$/m)
    const count = text.match(/^openmic_turn_voice_to_voice\w*_count\{[^}]*\} (\S+)$/m)
    expect([Number(count?.[1]), Number(sum?.[1])]).toEqual([1, metrics.endToEndMs])
    // The turn is counted once it is over: the client hung up after the frame, cutting the answer.
    const turns = /^openmic_turns\w*\{[^}]*openmic_transport="MicdropServer"[^}]*\} 1$/m
    const deadline = Date.now() + 5000
    let counted = await scrape()
    while (!turns.test(counted) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      counted = await scrape()
    }
    expect(counted).toMatch(turns)
  })
})

/** A fake OTLP/HTTP collector on 127.0.0.1: keeps the JSON bodies posted to it, by path. */
async function startCollector() {
  const posts: Array<{ path: string; body: any }> = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      posts.push({ path: request.url ?? '', body: JSON.parse(body) })
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, posts, close: () => server.close() }
}

describe('the demo server with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports the turn span over OTLP/HTTP, with the Metrics frame figures', async () => {
    const collector = await startCollector()
    try {
      const { app, base } = await startDemo({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url })
      const metrics = await oneTurn(base)
      await app.close() // flushes the spans and metrics
      const spans = collector.posts
        .filter((post) => post.path === '/v1/traces')
        .flatMap((post) => post.body.resourceSpans)
        .flatMap((resource: any) => resource.scopeSpans)
        .flatMap((scope: any) => scope.spans)
      const turn = spans.find((span: any) => span.name === 'openmic.turn')
      const attribute = turn?.attributes.find(
        (a: any) => a.key === 'openmic.turn.voice_to_voice_ms'
      )
      expect(attribute?.value.doubleValue ?? attribute?.value.intValue).toBe(metrics.endToEndMs)
      expect(collector.posts.some((post) => post.path === '/v1/metrics')).toBe(true)
    } finally {
      collector.close()
    }
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
