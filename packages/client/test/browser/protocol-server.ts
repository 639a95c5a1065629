import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import type { WebSocket } from 'ws'
import { tonePcm16 } from './wav.js'

/** What the server received on one connection, in order. */
export type Received = { text: string; at: number } | { audio: Buffer; at: number }

export interface Connection {
  socket: WebSocket
  params?: Record<string, unknown>
  received: Received[]
  closed: boolean
}

export interface ScriptedServerOptions {
  /** Token the params must carry; anything else closes with 4401. */
  token: string
  /** Spoken when the call starts (the audio is a 440 Hz tone of `firstAudioSeconds`). */
  firstMessage: string
  firstAudioSeconds: number
  /** What the scripted STT hears in any utterance. */
  transcript: string
  /** What the scripted agent answers, spoken for `answerAudioSeconds`. */
  answer: string
  answerAudioSeconds: number
}

/**
 * A minimal server speaking the openmic protocol (see shared/PROTOCOL.md) with a scripted STT,
 * agent and TTS, recording everything it receives. It streams TTS audio in 100 ms frames at twice
 * real time, as a TTS would, and stops streaming on barge-in (`StartSpeaking`) or `Mute`.
 */
export async function startScriptedServer(options: ScriptedServerOptions) {
  const http = createServer()
  const wss = new WebSocketServer({ server: http })
  const connections: Connection[] = []

  wss.on('connection', (socket) => {
    const connection: Connection = { socket, received: [], closed: false }
    connections.push(connection)
    let speaking: ReturnType<typeof setInterval> | undefined
    let utteranceBytes = 0
    const stopSpeaking = () => {
      clearInterval(speaking)
      speaking = undefined
    }
    const say = (text: string, seconds: number) => {
      stopSpeaking()
      socket.send(`Message ${JSON.stringify({ role: 'assistant', content: text })}`)
      const audio = tonePcm16(seconds)
      let offset = 0
      speaking = setInterval(() => {
        if (offset >= audio.length) return stopSpeaking()
        socket.send(audio.subarray(offset, offset + 3200))
        offset += 3200
      }, 50)
    }
    const paramsTimer = setTimeout(() => socket.close(4400, 'Missing params'), 3000)
    socket.on('close', () => {
      connection.closed = true
      stopSpeaking()
      clearTimeout(paramsTimer)
    })
    socket.on('message', (data, isBinary) => {
      const at = Date.now()
      if (isBinary) {
        const audio = Buffer.from(data as Buffer)
        connection.received.push({ audio, at })
        utteranceBytes += audio.length
        return
      }
      const text = data.toString()
      connection.received.push({ text, at })
      if (!connection.params) {
        clearTimeout(paramsTimer)
        try {
          connection.params = JSON.parse(text)
        } catch {
          return socket.close(4400, 'Invalid params')
        }
        if (connection.params?.token !== options.token) return socket.close(4401, 'Unauthorized')
        return say(options.firstMessage, options.firstAudioSeconds)
      }
      if (text === 'StartSpeaking') {
        stopSpeaking()
        utteranceBytes = 0
      } else if (text === 'Mute') {
        stopSpeaking()
      } else if (text === 'StopSpeaking') {
        if (utteranceBytes === 0) return socket.send('SkipAnswer')
        socket.send(`Message ${JSON.stringify({ role: 'user', content: options.transcript })}`)
        say(options.answer, options.answerAudioSeconds)
      }
    })
  })

  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done))
  const { port } = http.address() as AddressInfo
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
      await new Promise<void>((done) => http.close(() => done()))
    },
  }
}
