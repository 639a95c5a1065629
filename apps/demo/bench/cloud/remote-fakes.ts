// openmic's fake provider servers, run in a child process (bench/cloud/fake-host.ts) as a real
// provider runs on its own machine: their HTTP and WebSocket work, their JSON and base64 and
// their timers do not hold the event loop of the server being measured, and a request is read by
// the fake as soon as it is written, not once the server's current task is over.
import { fork, type ChildProcess } from 'node:child_process'
import type { HostReply, HostRequest } from './fake-host.js'

/** A fake in the host: its URLs, and its methods called there (their results are not returned). */
export type RemoteFake = {
  baseURL: string
  serverURL: string
} & Record<string, (...args: any[]) => void>

export class FakeHost {
  private readonly child: ChildProcess
  private readonly waiting = new Map<number, (reply: HostReply) => void>()
  private requests = 0

  constructor() {
    this.child = fork(new URL('./fake-host.ts', import.meta.url), { serialization: 'advanced' })
    this.child.on('message', (reply: HostReply) => {
      this.waiting.get(reply.id)?.(reply)
      this.waiting.delete(reply.id)
    })
  }

  /** `factory`: the name of a `createFake…` function of @openmic/testing. */
  async create(factory: string, options?: unknown): Promise<RemoteFake> {
    const { created } = await this.request({ create: factory, options })
    const { fake, baseURL, serverURL } = created!
    const call =
      (method: string) =>
      (...args: unknown[]) =>
        void this.request({ fake, method, args })
    return new Proxy({ baseURL, serverURL } as RemoteFake, {
      // Not a promise (`then` is not a method of a fake).
      get: (target, key: string) =>
        key === 'then' ? undefined : key in target ? target[key] : call(key),
    })
  }

  /** Ends the child process, and with it every fake. */
  close(): void {
    this.child.disconnect()
  }

  private request(request: Omit<HostRequest, 'id'>): Promise<HostReply> {
    const id = ++this.requests
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (reply) =>
        reply.error ? reject(new Error(reply.error)) : resolve(reply)
      )
      this.child.send({ id, ...request } as HostRequest)
    })
  }
}
