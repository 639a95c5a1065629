import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { launchBrowser, openPage, servePage } from './harness.js'
import { startTestServer } from './micdrop-server.js'
import type { TestCallOptions } from './micdrop-server.js'

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

/**
 * Sets up a describe block's browser tests: the test page on 127.0.0.1, Chromium with a fake
 * microphone playing `wav` (a file or WAV data; default: the generated voice), and a
 * MicdropServer with `options`.
 * Each `start()` opens a fresh page and starts a call; the call is stopped after each test.
 */
export function useBrowserCalls(options: TestCallOptions, wav?: string | Buffer) {
  let browser: Browser
  let site: Awaited<ReturnType<typeof servePage>>
  let server: Awaited<ReturnType<typeof startTestServer>>
  let page: Page | undefined

  beforeAll(async () => {
    ;[site, browser, server] = await Promise.all([
      servePage(),
      launchBrowser(wav),
      startTestServer(options),
    ])
  })

  afterEach(async () => {
    await page?.evaluate(() => window.openmic.stop()).catch(() => {})
    await page?.context().close()
    page = undefined
  })

  afterAll(async () => {
    await Promise.all([browser?.close(), site?.close(), server?.close()])
  })

  return {
    get site() {
      return site
    },
    get server() {
      return server
    },
    async start(params: Record<string, unknown>, extra: Record<string, unknown> = {}) {
      const call = await startCall(browser, site.url, server, params, extra)
      page = call.page
      return call
    },
  }
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
