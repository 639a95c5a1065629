import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { MicdropServer } from '@openmic/server'
import { describe, expect, it, vi } from 'vitest'
import { callRealServer, serverSide } from './real-server-call.js'

// The client's pauses against a real MicdropServer with `preemptive: true` on 127.0.0.1: the
// server answers at the pause and holds the answer until the client's end of speech.

async function call(utterances: string[]) {
  const call = await callRealServer(
    (socket) =>
      new MicdropServer(socket, {
        agent: new MockAgent(),
        stt: new MockSTT({ utterances }),
        tts: new MockTTS(),
        preemptive: true,
      })
  )
  // The client reports pauses once the server said it answers at them
  await vi.waitFor(() => expect(call.serverHello()).toContain('"preemptive":true'))
  return call
}

describe('against a server with preemptive answers', () => {
  it('the answer made at the pause is held, then heard once the client says the turn ended', async () => {
    const { client, mic, speaker, server } = await call(['What time is it?'])
    mic.frames(10, -20)
    mic.frames(15, -90) // 300 ms of quiet: a pause (200 ms), not the end (600 ms)
    // The server answered the words so far...
    await vi.waitFor(() => expect(serverSide(server()).at(-1)?.role).toBe('assistant'))
    // ...and holds all of it: the client gets nothing of the turn
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(client.conversation).toEqual([])
    expect(speaker.played).toEqual([])
    mic.frames(15, -90) // the end of speech
    await vi.waitFor(() => {
      speaker.finish()
      expect(client.conversation.at(-1)?.role).toBe('assistant')
    })
    expect(client.conversation).toEqual([
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: 'You said: "What time is it?"' },
    ])
    expect(client.conversation).toEqual(serverSide(server()))
  })

  it('a user who goes on after the pause gets one answer to all their words', async () => {
    const { client, mic, speaker, server } = await call(['Book a table', 'for two.'])
    mic.frames(10, -20)
    mic.frames(15, -90)
    // The held answer to "Book a table" is made before the user goes on
    await vi.waitFor(() => expect(serverSide(server()).at(-1)?.role).toBe('assistant'))
    mic.frames(10, -20)
    mic.frames(30, -90)
    await vi.waitFor(() => {
      speaker.finish()
      expect(client.conversation.at(-1)?.role).toBe('assistant')
    })
    const turn = [
      { role: 'user', content: 'Book a table for two.' },
      { role: 'assistant', content: 'You said: "Book a table for two."' },
    ]
    expect(client.conversation).toEqual(turn)
    expect(serverSide(server())).toEqual(turn)
  })
})
