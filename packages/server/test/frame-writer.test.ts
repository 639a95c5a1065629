import type { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { FrameWriter } from '../src/server/frame-writer.js'
import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { MicdropServer } from '../src/index.js'
import { closeAfterEach, startMockCall, startServer, TestClient } from './harness.js'

const cleanup = closeAfterEach()

/** Counts the writes a server-side socket hands to the system (`_write`/`_writev` calls). */
function countWrites(socket: WebSocket): { writes: number } {
  const counter = { writes: 0 }
  const tcp = (socket as unknown as { _socket: Socket })._socket
  for (const method of ['_write', '_writev'] as const) {
    const original = tcp[method]!.bind(tcp) as (...args: unknown[]) => void
    tcp[method] = ((...args: unknown[]) => {
      counter.writes++
      original(...args)
    }) as never
  }
  return counter
}

describe('FrameWriter', () => {
  it('sends the frames of one burst in order, in a single TCP write', async () => {
    let counter = { writes: 0 }
    const server = await startServer((socket) => {
      const writer = new FrameWriter(socket)
      counter = countWrites(socket)
      socket.on('message', () => {
        writer.send('first', false)
        writer.send(Buffer.from([1, 2, 3, 4]), true)
        void Promise.resolve().then(() => writer.send('after a promise job', false))
      })
    })
    cleanup.stop = server.close
    const client = await TestClient.connect(server.url)
    client.send('go')
    await client.waitFor((c) => c.received.length === 3)
    expect(
      client.received.map((item) => (item.kind === 'audio' ? [...item.audio] : item.text))
    ).toEqual(['first', [1, 2, 3, 4], 'after a promise job'])
    expect(counter.writes).toBe(1)
  })

  it('a user turn goes out in three system calls: up to the first audio, the rest, its last word', async () => {
    const { client, server } = await startMockCall(cleanup, () => ({}))
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    const counter = countWrites(server.socket)
    client.utterance(1)
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle(30)
    expect(client.flow.slice(0, 3)).toEqual(['SkipAnswer', 'Message:user', 'audio'])
    expect(client.count('audio')).toBeGreaterThan(1)
    // The first audio leaves at once; the rest of the answer, its text with it (a Micdrop client
    // is shown it as it starts playing), in one more write; the last word once the text ended
    // (MockTTS says a word once it is whole)
    expect(counter.writes).toBe(3)
  })

  it('drops frames once the socket is closed, and flushes what is gathered before closing', async () => {
    const result: boolean[] = []
    const server = await startServer((socket) => {
      const writer = new FrameWriter(socket)
      result.push(writer.send('last words', false))
      writer.flush()
      socket.close(1000)
      result.push(writer.send('too late', false))
    })
    cleanup.stop = server.close
    const client = new TestClient(new WebSocket(server.url))
    await client.waitForClose()
    expect(client.received.map((item) => item.kind === 'text' && item.text)).toEqual(['last words'])
    expect(client.closeCode).toBe(1000)
    expect(result).toEqual([true, false])
  })

  describe('on a socket whose connection cannot be reached (a wrapper socket)', () => {
    /** The server socket behind a wrapper that shows only the public `ws` API. */
    function wrap(socket: WebSocket): WebSocket {
      return new Proxy(socket, {
        get(target, property) {
          if (property === '_socket') return undefined
          const value = Reflect.get(target, property, target) as unknown
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
    }

    it('still sends every frame, binary and text, in order', async () => {
      const sent: Array<string | number[]> = []
      const server = await startServer((socket) => {
        const writer = new FrameWriter(wrap(socket))
        const send = (index: number) => {
          const frame = index % 3 === 0 ? [index, index + 1] : `frame ${index}`
          sent.push(frame)
          writer.send(
            typeof frame === 'string' ? frame : Buffer.from(frame),
            typeof frame !== 'string'
          )
        }
        socket.on('message', async () => {
          for (let i = 0; i < 10; i++) send(i)
          writer.flush()
          await Promise.resolve()
          for (let i = 10; i < 20; i++) send(i)
          await new Promise((resolve) => setImmediate(resolve))
          for (let i = 20; i < 30; i++) send(i)
        })
      })
      cleanup.stop = server.close
      const client = await TestClient.connect(server.url)
      client.send('go')
      await client.waitFor((c) => c.received.length === 30)
      expect(
        client.received.map((item) => (item.kind === 'audio' ? [...item.audio] : item.text))
      ).toEqual(sent)
    })

    it('a whole call works: the client gets every frame of the turn', async () => {
      const audio: Buffer[] = []
      const server = await startServer((socket) => {
        const call = new MicdropServer(wrap(socket), {
          agent: new MockAgent({ answers: ['Sure, here you go.'] }),
          stt: new MockSTT(),
          tts: new MockTTS(),
        })
        call.on('AssistantAudio', (chunk) => audio.push(chunk))
      })
      cleanup.stop = server.close
      const client = await TestClient.connect(server.url)
      client.utterance()
      await client.waitFor((c) => c.count('Message:assistant') === 1)
      await client.settle(30)
      expect(client.log.filter((entry) => entry !== 'audio')).toEqual([
        'SkipAnswer',
        'Message:user',
        'Message:assistant',
      ])
      expect(client.audioBytes()).toBe(Buffer.concat(audio).length)
      expect(client.audioBytes()).toBeGreaterThan(0)
    })
  })
})
