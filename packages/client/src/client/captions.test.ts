import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { audio, fakeCall, startSpeaking } from '../../test/fake-call.js'

// Captions (docs/protocol.md, "Captions"): each `Caption {"text","atMs"}` is appended to
// `state.caption` once playback reaches `atMs`, in the connection's assistant audio.

const caption = (text: string, atMs: number) => `Caption ${JSON.stringify({ text, atMs })}`

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
})
afterEach(() => {
  vi.useRealTimers()
})

/** A call whose server said Hello (`resume`), speaking 1 s of audio captioned in three pieces. */
async function speakingCall(resume = true) {
  const call = fakeCall()
  const ws = await call.connect()
  ws.receive(`Hello {"resume":${resume}}`)
  ws.receive(audio(1000))
  ws.receive(caption('Once', 300))
  ws.receive(caption(' upon', 600))
  ws.receive(caption(' a time', 900))
  const captions: string[] = []
  call.client.on('StateChange', (state, previous) => {
    if (state.caption !== previous.caption) captions.push(state.caption)
  })
  return { ...call, ws, captions }
}

describe('captions', () => {
  it('reveals each piece when playback reaches its position, waiting on one timer', async () => {
    const { client, play, captions } = await speakingCall()
    expect(client.state.caption).toBe('')
    expect(vi.getTimerCount()).toBe(1)
    play(299)
    expect(client.caption).toBe('')
    play(1)
    expect(client.state.caption).toBe('Once')
    play(600)
    expect(captions).toEqual(['Once', 'Once upon', 'Once upon a time'])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('shows at once a piece that playback already reached', async () => {
    const { client, ws, play } = await speakingCall()
    play(950)
    ws.receive(caption(' there', 940))
    expect(client.caption).toBe('Once upon a time there')
  })

  it('stands still while the answer is paused over the user, and goes on at Resume', async () => {
    const { client, mic, ws, play, captions } = await speakingCall()
    play(400)
    startSpeaking(mic)
    expect(ws.texts).toContain('Played {"ms":400,"paused":true}')
    play(2000) // the speaker is paused: the position stays at 400
    expect(client.caption).toBe('Once')
    ws.receive('Resume')
    play(199)
    expect(client.caption).toBe('Once')
    play(1)
    expect(captions).toEqual(['Once', 'Once upon'])
  })

  describe('when the audio is dropped, what was not reached goes with it; the Message replaces the rest', () => {
    const drops = {
      'barge-in (a server that does not resume)': async () => {
        const call = await speakingCall(false)
        call.play(400)
        startSpeaking(call.mic)
        return call
      },
      Interrupt: async () => {
        const call = await speakingCall()
        call.play(400)
        startSpeaking(call.mic)
        call.ws.receive('Interrupt')
        return call
      },
      'pause()': async () => {
        const call = await speakingCall()
        call.play(400)
        call.client.pause()
        return call
      },
    }
    for (const [name, drop] of Object.entries(drops)) {
      it(name, async () => {
        const { client, ws, speaker, play } = await drop()
        expect(speaker.queuedMs).toBe(0)
        // Pieces of the dropped audio still in flight are never shown either
        ws.receive(caption(' there', 950))
        ws.receive(audio(100))
        play(2000)
        expect(client.caption).toBe('Once')
        ws.receive('Message {"role":"assistant","content":"Once","metadata":{"interrupted":true}}')
        expect(client.state).toMatchObject({ caption: '', conversation: [{ content: 'Once' }] })
      })
    }
  })

  it('is replaced by the assistant Message in the same StateChange', async () => {
    const { client, ws, play } = await speakingCall()
    play(1000)
    const states: Array<[string, number]> = []
    client.on('StateChange', (state) => states.push([state.caption, state.conversation.length]))
    ws.receive('Message {"role":"user","content":"Hi"}')
    expect(client.caption).toBe('Once upon a time')
    ws.receive('Message {"role":"assistant","content":"Once upon a time"}')
    expect(states).toEqual([
      ['Once upon a time', 1],
      ['', 2],
    ])
  })

  it('is cleared when the connection it came on is lost, or the call stops', async () => {
    const lost = await speakingCall()
    lost.play(400)
    lost.ws.serverClose(1006)
    expect(lost.client.state).toMatchObject({ isReconnecting: true, caption: '' })

    const stopped = await speakingCall()
    stopped.play(400)
    await stopped.client.stop()
    expect(stopped.client.state.caption).toBe('')
  })

  it('counts positions from 0 again on a new connection', async () => {
    const { client, sockets, ws, play } = await speakingCall()
    play(1000)
    ws.serverClose(1006)
    vi.advanceTimersByTime(500)
    const next = sockets[1]!
    next.open()
    next.receive(audio(500))
    next.receive(caption('Welcome back', 400))
    play(399)
    expect(client.caption).toBe('')
    play(1)
    expect(client.caption).toBe('Welcome back')
  })
})
