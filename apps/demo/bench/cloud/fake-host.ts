// The child process that runs the fake provider servers of bench/cloud/remote-fakes.ts: creates a
// fake by its factory's name, and calls a fake's methods (the scripts of each turn) on request.
import * as testing from '@openmic/testing'

export type HostRequest =
  | { id: number; create: string; options?: unknown }
  | { id: number; fake: number; method: string; args: unknown[] }

export interface HostReply {
  id: number
  /** A created fake: its number and its URLs. */
  created?: { fake: number; baseURL?: string; serverURL?: string }
  error?: string
}

type Fake = Record<string, unknown> & { baseURL?: string; serverURL?: string }
const fakes: Fake[] = []
const factories = testing as unknown as Record<string, (options?: unknown) => Promise<Fake>>

async function handle(request: HostRequest): Promise<HostReply> {
  if ('create' in request) {
    const fake = await factories[request.create]!(request.options)
    fakes.push(fake)
    const { baseURL, serverURL } = fake
    return { id: request.id, created: { fake: fakes.length - 1, baseURL, serverURL } }
  }
  const fake = fakes[request.fake]!
  await (fake[request.method] as (...args: unknown[]) => unknown).apply(fake, request.args)
  return { id: request.id }
}

process.on('message', (request: HostRequest) => {
  handle(request).then(
    (reply) => process.send!(reply),
    (error: unknown) => process.send!({ id: request.id, error: String(error) })
  )
})
process.on('disconnect', () => process.exit(0))
