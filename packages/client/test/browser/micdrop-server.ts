import type { AddressInfo } from 'node:net'
import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import {
  MicdropError,
  MicdropErrorCode,
  MicdropServer,
  handleError,
  waitForParams,
} from '@openmic/server'
import { WebSocketServer } from 'ws'
import type { WebSocket } from 'ws'

/** What the server received on one connection, in order. */
export type Received = { text: string; at: number } | { audio: Buffer; at: number }

export interface Connection {
  socket: WebSocket
  params?: Record<string, unknown>
  received: Received[]
  closed: boolean
}

export interface TestCallOptions {
  /** Token the params must carry; anything else closes with 4401. */
  token: string
  firstMessage: string
  /** What the scripted STT hears in every utterance. */
  transcript: string
  /** What the scripted agent answers. */
  answer: string
  /** Length of the TTS tone per character of text, in ms. */
  msPerChar: number
  /** The agent says `answer` as a goodbye and ends the call (its `end_call` tool). */
  endCall?: boolean
}

/**
 * A real `MicdropServer` per connection on 127.0.0.1, with core's MockAgent and the scripted
 * MockSTT / MockTTS doubles, recording every frame the client sends. The TTS streams 100 ms
 * chunks every 50 ms (twice real time), as a streaming TTS would.
 */
export async function startTestServer(options: TestCallOptions) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 1 << 16 })
  const connections: Connection[] = []

  wss.on('connection', async (socket) => {
    const connection: Connection = { socket, received: [], closed: false }
    connections.push(connection)
    socket.on('message', (data: Buffer, isBinary) => {
      const at = Date.now()
      if (isBinary) connection.received.push({ audio: Buffer.from(data), at })
      else connection.received.push({ text: data.toString(), at })
    })
    socket.on('close', () => (connection.closed = true))
    try {
      connection.params = await waitForParams(socket, (params: Record<string, unknown>) => {
        if (params?.token !== options.token) {
          throw new MicdropError(MicdropErrorCode.Unauthorized, 'Invalid token')
        }
        return params
      })
      new MicdropServer(socket, {
        agent: new MockAgent({
          systemPrompt: 'You are a test.',
          autoEndCall: options.endCall,
          answers: options.endCall
            ? [{ text: options.answer, toolCalls: [{ name: 'end_call' }] }, '']
            : [options.answer],
        }),
        stt: new MockSTT({ utterances: [options.transcript] }),
        tts: new MockTTS({ msPerChar: options.msPerChar, chunkMs: 100, chunkDelayMs: 50 }),
        firstMessage: options.firstMessage,
      })
    } catch (error) {
      handleError(socket, error)
    }
  })

  await new Promise<void>((done) => wss.once('listening', done))
  const { port } = wss.address() as AddressInfo
  return {
    url: `ws://127.0.0.1:${port}/call`,
    connections,
    /** Drops every open socket without a close frame (the client sees 1006). */
    dropAll() {
      for (const connection of connections) if (!connection.closed) connection.socket.terminate()
    },
    async close() {
      for (const client of wss.clients) client.terminate()
      await new Promise<void>((done) => wss.close(() => done()))
    },
  }
}
