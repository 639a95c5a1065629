import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeCall, startSpeaking, stopSpeaking } from './fake-call.js'
import { FakeOpenmicServer } from './fake-openmic-server.js'

// Against a server that speaks openmic's protocol (Hello, Caption, the answer's Message once
// final): after a cut or a false interruption, the client's conversation is the server's, and
// its caption showed what was heard.

const STORY = 'Once upon a time there was a fox'

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
})
afterEach(() => {
  vi.useRealTimers()
})

/** A call where the server tells STORY (100 ms a word) and the client played 250 ms of it. */
async function storyCall(transcripts: string[], options = {}) {
  const call = fakeCall(options)
  const ws = await call.connect()
  const server = new FakeOpenmicServer(ws, transcripts)
  server.deliver() // its Hello
  server.speak(STORY)
  server.stream(4)
  server.deliver()
  call.play(250)
  expect(call.client.caption).toBe('Once upon')
  return { ...call, ws, server }
}

describe('against an openmic server, the conversation is the same on both sides', () => {
  it('after a real interruption: the answer cut to the words heard, as the caption showed', async () => {
    const { client, mic, ws, server, play } = await storyCall(['Stop'])
    startSpeaking(mic)
    expect(ws.texts.slice(-2)).toEqual(['Played {"ms":250,"paused":true}', 'StartSpeaking'])
    server.stream(4) // held: nothing more is sent
    server.deliver()
    stopSpeaking(mic)
    server.deliver()
    play(1000)
    expect(server.conversation).toEqual([
      {
        role: 'assistant',
        content: 'Once upon',
        metadata: { interrupted: true, fullContent: STORY, heardMs: 250 },
      },
      { role: 'user', content: 'Stop' },
    ])
    expect(client.conversation).toEqual(server.conversation)
    expect(client.caption).toBe('')
  })

  it('after a false interruption: the answer plays on where it paused, whole', async () => {
    const { client, mic, speaker, server, play } = await storyCall([''])
    startSpeaking(mic)
    stopSpeaking(mic)
    server.deliver() // Resume, the rest of the answer, SkipAnswer
    expect(speaker.isPaused).toBe(false)
    play(550)
    expect(client.caption).toBe(STORY)
    server.finish()
    server.deliver()
    expect(server.conversation).toEqual([{ role: 'assistant', content: STORY }])
    expect(client.conversation).toEqual(server.conversation)
    expect(client.caption).toBe('')
  })

  it('after a barge-in that drops the answer (resumeAfterNoise: false)', async () => {
    const { client, mic, ws, server } = await storyCall(['Stop'], { resumeAfterNoise: false })
    startSpeaking(mic)
    expect(ws.texts.slice(-2)).toEqual(['Played {"ms":250}', 'StartSpeaking'])
    server.deliver() // the cut answer's Message
    expect(client.caption).toBe('')
    stopSpeaking(mic)
    server.deliver()
    expect(client.conversation.map((item) => item.content)).toEqual(['Once upon', 'Stop'])
    expect(client.conversation).toEqual(server.conversation)
  })
})
