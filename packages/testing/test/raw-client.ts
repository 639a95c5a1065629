import { WebSocket } from 'ws'
import { waitUntil } from '../src/net/websocket-fake-server.js'

/** How long a raw client waits for a message before failing. */
const WAIT_MS = 2000

/**
 * A raw WebSocket client of a fake, as a provider's client would be without its SDK: every JSON
 * message it received, in order, and ways to wait for them.
 */
export async function connectRawClient(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers })
  const messages: any[] = []
  ws.on('message', (data) => messages.push(JSON.parse(String(data))))
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  const matches = (type: string, where: (message: any) => boolean) => (message: any) =>
    message.type === type && where(message)
  return {
    ws,
    messages,
    /** Resolves with the close code, once the socket is closed. */
    closed,
    send: (message: unknown) => ws.send(JSON.stringify(message)),
    /** Takes the first message of `type` (and matching `where`) out of `messages`, waiting for it. */
    async next(type: string, where: (message: any) => boolean = () => true): Promise<any> {
      await waitUntil(
        () => messages.some(matches(type, where)),
        WAIT_MS,
        () => `no ${type}`
      )
      return messages.splice(messages.findIndex(matches(type, where)), 1)[0]
    },
    /** Resolves with `messages` once `count` messages came. */
    async atLeast(count: number): Promise<any[]> {
      const what = () => `${messages.length} of ${count} messages`
      await waitUntil(() => messages.length >= count, WAIT_MS, what)
      return messages
    },
  }
}
