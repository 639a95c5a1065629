import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { WebSocketServer, type WebSocket } from 'ws'

/** One connection to the test's Media Streams server: what Twilio's side sent, and a way back. */
export interface MediaConnection {
  socket: WebSocket
  url: string
  headers: Record<string, string | string[] | undefined>
  /** Every message received, parsed, with its time (`performance.now()`). */
  messages: Array<{ at: number; message: any }>
  closed: Promise<number>
  send(message: unknown): void
  of(event: string): any[]
}

/** A bare `ws` server on 127.0.0.1 standing in for the voice server under test. */
export async function startMediaServer() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  const connections: MediaConnection[] = []
  wss.on('connection', (socket, req) => {
    const messages: MediaConnection['messages'] = []
    socket.on('message', (data) =>
      messages.push({ at: performance.now(), message: JSON.parse(String(data)) })
    )
    connections.push({
      socket,
      url: req.url ?? '/',
      headers: req.headers,
      messages,
      closed: new Promise((resolve) => socket.on('close', (code) => resolve(code))),
      send: (message) =>
        socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
      of: (event) => messages.filter((m) => m.message.event === event).map((m) => m.message),
    })
  })
  const { port } = wss.address() as AddressInfo
  return {
    url: `ws://127.0.0.1:${port}/twilio/stream`,
    connections,
    async connection(): Promise<MediaConnection> {
      while (connections.length === 0) await new Promise((resolve) => setTimeout(resolve, 2))
      return connections[0]!
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate()
        wss.close(() => resolve())
      }),
  }
}

/** `ms` of a 440 Hz tone, PCM16 16 kHz. */
export function tone16k(ms: number, amplitude = 8000): Buffer {
  const samples = Math.round(16 * ms)
  const audio = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    audio.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * 440 * i) / 16_000)), i * 2)
  }
  return audio
}
