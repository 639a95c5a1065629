import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { requireCommand, startProcess } from './child-process.js'
import { freePort } from './free-port.js'

/** A real Prometheus server on 127.0.0.1, started by a test, scraping one target. */
export interface TestPrometheusServer {
  /** Its HTTP API, e.g. `http://127.0.0.1:40123`. */
  readonly url: string
  /**
   * Runs an instant PromQL query (`/api/v1/query`): the value of each series of the result
   * (empty until a scrape brought it). Throws on an error answer.
   */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>>
  /** Stops it and deletes its data. */
  stop(): Promise<void>
}

export interface StartPrometheusServerOptions {
  /** What it scrapes: `host:port` (path `/metrics`). */
  target: string
  /** How often (default 1 s, so that a test reads a scrape soon). */
  scrapeIntervalSeconds?: number
}

/**
 * Starts `prometheus` (Debian package `prometheus`) on a free port with a configuration that
 * scrapes `target`, its data in a temporary directory.
 */
export async function startPrometheusServer(
  options: StartPrometheusServerOptions
): Promise<TestPrometheusServer> {
  const command = requireCommand('prometheus', 'prometheus')
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'openmic-prometheus-'))
  const interval = `${options.scrapeIntervalSeconds ?? 1}s`
  const config = join(dir, 'prometheus.yml')
  writeFileSync(
    config,
    [
      'global:',
      `  scrape_interval: ${interval}`,
      `  scrape_timeout: ${interval}`,
      'scrape_configs:',
      '  - job_name: test',
      '    static_configs:',
      `      - targets: ['${options.target}']`,
      '',
    ].join('\n')
  )
  const child = startProcess(command, [
    `--config.file=${config}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
  ])
  const stop = async () => {
    await child.stop('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await child.waitForOutput('Server is ready to receive web requests', 30_000)
  } catch (error) {
    await stop()
    throw error
  }
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    async query(promql) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`)
      const body = (await response.json()) as {
        status: string
        error?: string
        data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> }
      }
      if (body.status !== 'success') throw new Error(`Prometheus query ${promql}: ${body.error}`)
      return body.data!.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }))
    },
    stop,
  }
}
