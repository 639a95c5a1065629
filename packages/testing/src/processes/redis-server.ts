import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { requireCommand, startProcess, type TestProcess } from './child-process.js'
import { freePort } from './free-port.js'

/** A real `redis-server` on 127.0.0.1, started by a test. */
export interface TestRedisServer {
  readonly port: number
  readonly url: string
  /** Kills it (SIGKILL by default: a crash) and keeps its data directory for `restart()`. */
  kill(signal?: NodeJS.Signals): Promise<void>
  /** Starts it again on the same port and data (after `kill()`). */
  restart(): Promise<void>
  /** Stops it and deletes its data. */
  stop(): Promise<void>
}

export interface StartRedisServerOptions {
  /**
   * When the append-only file is synced: `always` (default: a killed and restarted server keeps
   * every acknowledged write) or `everysec` (what production servers usually run; for benchmarks).
   */
  appendfsync?: 'always' | 'everysec'
}

/**
 * Starts `redis-server` (Debian package `redis-server`) on a free port, with an append-only file
 * (synced at every write by default, so that a killed and restarted server keeps every
 * acknowledged write).
 */
export async function startRedisServer(
  options: StartRedisServerOptions = {}
): Promise<TestRedisServer> {
  const command = requireCommand('redis-server', 'redis-server')
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'openmic-redis-'))
  let current: TestProcess | undefined
  const start = async () => {
    const child = startProcess(command, [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      options.appendfsync ?? 'always',
    ])
    current = child
    try {
      await child.waitForOutput('Ready to accept connections')
    } catch (error) {
      await child.stop('SIGKILL')
      throw error
    }
  }
  await start()
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: async (signal = 'SIGKILL') => {
      await current?.stop(signal)
    },
    restart: start,
    stop: async () => {
      await current?.stop('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
