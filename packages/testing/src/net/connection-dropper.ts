import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

/** A TCP server that cuts every connection at once: see {@link listenDroppingConnections}. */
export interface ConnectionDropper {
  /** `http://127.0.0.1:<port>`: point a client here to see its requests fail to connect. */
  readonly url: string
  /** How many connections were opened (each one a try of a request). */
  readonly connections: number
  /** Stops listening. */
  close(): Promise<void>
}

/**
 * Listens on a free port of 127.0.0.1 and resets each connection as soon as it opens, counting
 * them: every request sent there fails with a connection error before any response, and the count
 * says how many times a client tried (what a port nothing listens on cannot say).
 *
 * @example
 * const dropper = await listenDroppingConnections()
 * // ... an agent with baseURL `${dropper.url}/v1` answers and fails
 * expect(dropper.connections).toBe(maxRetry + 1)
 * await dropper.close()
 */
export async function listenDroppingConnections(): Promise<ConnectionDropper> {
  let connections = 0
  const server: Server = createServer((socket: Socket) => {
    connections++
    // Reset (RST) rather than close: a client then fails at once. A plain close before the
    // request was written can leave Node's fetch waiting forever.
    socket.resetAndDestroy()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
