// The demo's /metrics scraped by a real Prometheus server (Debian's `prometheus`, started here):
// a turn's latency read back through Prometheus's query API is the one the call measured.
import { startPrometheusServer, type TestPrometheusServer } from '@openmic/testing'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { oneTurn, startDemo } from './metrics-demo.js'

let app: FastifyInstance
let prometheus: TestPrometheusServer
let base: string

beforeAll(async () => {
  ;({ app, base } = await startDemo({ OPENMIC_PROMETHEUS: 'true' }))
  prometheus = await startPrometheusServer({ target: base })
}, 40_000)

afterAll(async () => {
  await prometheus?.stop()
  await app?.close()
})

/** Queries until a scrape brought a result (Prometheus scrapes every second here). */
async function queryWhenScraped(promql: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const result = await prometheus.query(promql)
    if (result.length > 0 || Date.now() > deadline) return result
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

it('reads a turn latency back from Prometheus, equal to the Metrics frame', async () => {
  const metrics = await oneTurn(base)
  const [sum] = await queryWhenScraped('{__name__=~"openmic_turn_voice_to_voice.*_sum"} > 0')
  expect(sum?.value).toBe(metrics.endToEndMs)
  expect(sum?.metric.openmic_transport).toBe('MicdropServer')
  const [turns] = await queryWhenScraped('{__name__=~"openmic_turns.*"} > 0')
  expect(turns?.value).toBe(1)
}, 40_000)
