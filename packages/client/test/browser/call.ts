import type { Browser } from 'playwright-core'
import { openPage } from './harness.js'
import type { startTestServer } from './micdrop-server.js'

// The fake microphone is a file: the browser's own processing would only add noise to the test
const MIC = { echoCancellation: false, noiseSuppression: false, autoGainControl: false }

/** Opens the test page and starts a call to `server` from it (`extra`: more client options). */
export async function startCall(
  browser: Browser,
  siteUrl: string,
  server: Awaited<ReturnType<typeof startTestServer>>,
  params: Record<string, unknown>,
  extra: Record<string, unknown> = {}
) {
  const { page, requests } = await openPage(browser, siteUrl)
  const before = server.connections.length
  const result = await page.evaluate(
    ([url, params, extra]) => window.openmic.start({ url, params, ...extra }),
    [server.url, params, { mic: MIC, ...extra }] as const
  )
  return { page, requests, result, connection: () => server.connections[before] }
}

interface PageEvent {
  t: number
  key: string
  value?: unknown
}

declare global {
  interface Window {
    openmic: {
      start(options: Record<string, unknown>): Promise<{ ok: boolean; code?: string }>
      stop(): Promise<void>
      state(): Record<string, unknown> & { error?: string; isStarted: boolean }
      events: PageEvent[]
      bargeIns: Array<{ latency: number; levelBefore: number }>
      measureBargeIns(rounds: number, timeoutMs?: number): Promise<number[]>
      client: import('../../src/index.js').MicdropClient
    }
  }
}
