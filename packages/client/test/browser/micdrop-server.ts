import type { AddressInfo } from 'node:net'
import { MockAgent, MockSTT, MockTTS, type MicdropConversationItem } from '@openmic/core'
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
  server?: MicdropServer
  /** Every conversation item the server sent (its `Message` event). */
  messages: MicdropConversationItem[]
  /** Text frames the server sent, in order. */
  sent: string[]
}

export interface TestCallOptions {
  /** Token the params must carry; anything else closes with 4401. */
  token: string
  firstMessage?: string
  /** What the scripted STT hears in the first utterance. */
  transcript: string
  /** What it hears in the next ones, in order (default: nothing more). */
  moreTranscripts?: string[]
  /** What the scripted agent answers first. */
  answer: string
  /** Its next answers, in order. */
  moreAnswers?: string[]
  /** Length of the TTS tone per character of text, in ms. */
  msPerChar: number
  /** The agent says `answer` as a goodbye and ends the call (its `end_call` tool). */
  endCall?: boolean
  /** The server's `resumeAfterNoise` (default true): whether it holds an answer the client pauses. */
  resumeAfterNoise?: boolean
  /** The server's `preemptive` (default false): it answers at the user's pauses. */
  preemptive?: boolean
  /** The agent repeats the user's words (`You said: "…"`) instead of `answer`. */
  echo?: boolean
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
    const connection: Connection = {
      socket,
      received: [],
      closed: false,
      messages: [],
      sent: [],
    }
    const send = socket.send.bind(socket)
    socket.send = ((data: unknown, ...rest: unknown[]) => {
      if (typeof data === 'string') connection.sent.push(data)
      return (send as (...args: unknown[]) => void)(data, ...rest)
    }) as typeof socket.send
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
      connection.server = new MicdropServer(socket, {
        agent: new MockAgent({
          systemPrompt: 'You are a test.',
          autoEndCall: options.endCall,
          answers: options.echo
            ? undefined
            : options.endCall
              ? [{ text: options.answer, toolCalls: [{ name: 'end_call' }] }, '']
              : [options.answer, ...(options.moreAnswers ?? [])],
        }),
        stt: new MockSTT({
          utterances: [options.transcript, ...(options.moreTranscripts ?? [])],
        }),
        tts: new MockTTS({ msPerChar: options.msPerChar, chunkMs: 100, chunkDelayMs: 50 }),
        firstMessage: options.firstMessage,
        resumeAfterNoise: options.resumeAfterNoise,
        preemptive: options.preemptive,
      })
      connection.server.on('Message', (item) => connection.messages.push(item))
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
