import { afterEach, describe, expect, it, vi } from 'vitest'
import { audio, fakeCall, startSpeaking, stopSpeaking } from '../../test/fake-call.js'

// The pause rule is the server's (docs/protocol.md, "False interruptions"): the client pauses the
// answer at the user's speech only when this connection's server said `Hello {"resume":true}` and
// unplayed audio is queued; otherwise it drops it, as Micdrop's client does.

const RESUME = 'Hello {"resume":true}'

afterEach(() => {
  vi.useRealTimers()
})

describe('false interruptions: the client pauses only when the server settles the pause', () => {
  it('pauses the answer at StartSpeaking, queues what comes, and plays on at Resume', async () => {
    const { client, mic, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(RESUME)
    ws.receive(audio(100))
    speaker.queuedMs = 70
    startSpeaking(mic)
    expect(ws.texts.slice(-2)).toEqual(['Played {"ms":30,"paused":true}', 'StartSpeaking'])
    expect(speaker).toMatchObject({ isPaused: true, stops: 0 })
    // In flight when the server held the answer: kept behind the pause, not dropped
    ws.receive(audio(100))
    expect(speaker.played).toHaveLength(2)
    stopSpeaking(mic)
    ws.receive('SkipAnswer')
    ws.receive('Resume')
    expect(speaker).toMatchObject({ isPaused: false, stops: 0, isPlaying: true })
    ws.receive(audio(100))
    expect(speaker.played).toHaveLength(3)
    expect(client.state).toMatchObject({ isProcessing: false, isAssistantSpeaking: true })
  })

  it('drops the paused answer at Interrupt', async () => {
    const { mic, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(RESUME)
    ws.receive(audio(100))
    startSpeaking(mic)
    expect(speaker.isPaused).toBe(true)
    ws.receive('Interrupt')
    expect(speaker).toMatchObject({ isPaused: false, stops: 1, isPlaying: false, queuedMs: 0 })
  })

  it('has no deadline of its own: the answer stays paused, audio queuing, until the server settles it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    const { mic, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(RESUME)
    ws.receive(audio(100))
    startSpeaking(mic)
    stopSpeaking(mic)
    vi.advanceTimersByTime(10 * 60_000)
    // Audio that comes meanwhile (the rest of the answer) is queued behind the pause, not taken
    // for a next answer that replaces it
    ws.receive(audio(100))
    expect(speaker).toMatchObject({ isPaused: true, stops: 0, queuedMs: 200 })
    vi.advanceTimersByTime(10 * 60_000)
    expect(speaker.isPaused).toBe(true)
    ws.receive('Resume')
    expect(speaker).toMatchObject({ isPaused: false, stops: 0, queuedMs: 200 })
  })

  it('regression: once the greeting finished playing, speaking drops (paused:false) instead of pausing nothing', async () => {
    // Measured: the client sent `Played {"paused":true}` with nothing left to play, and the
    // server, holding nothing, answered Interrupt
    const { mic, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(RESUME)
    ws.receive(audio(800)) // the greeting
    speaker.finish()
    startSpeaking(mic)
    expect(ws.texts.slice(-2)).toEqual(['Played {"ms":800}', 'StartSpeaking'])
    expect(speaker.isPaused).toBe(false)
  })

  it('with a server that never replied to Hello (Micdrop): drops at barge-in, never pauses', async () => {
    const { client, mic, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(audio(100))
    speaker.queuedMs = 60
    startSpeaking(mic)
    expect(ws.texts.slice(-2)).toEqual(['Played {"ms":40}', 'StartSpeaking'])
    expect(speaker).toMatchObject({ isPaused: false, stops: 1, isPlaying: false })
    // The rest of the interrupted answer, still in flight, is not played over the user
    ws.receive(audio(100))
    expect(speaker.played).toHaveLength(1)
    expect(client.state.isAssistantSpeaking).toBe(false)
  })

  it('with a server that does not resume (Hello {"resume":false}): drops at barge-in', async () => {
    const { mic, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive('Hello {"resume":false}')
    ws.receive(audio(100))
    startSpeaking(mic)
    expect(ws.texts.slice(-2)).toEqual(['Played {"ms":0}', 'StartSpeaking'])
    expect(speaker).toMatchObject({ isPaused: false, stops: 1 })
  })

  it('with resumeAfterNoise: false, drops at barge-in though the server would resume', async () => {
    const { mic, speaker, connect } = fakeCall({ resumeAfterNoise: false })
    const ws = await connect()
    ws.receive(RESUME)
    ws.receive(audio(100))
    startSpeaking(mic)
    expect(ws.texts.slice(-2)).toEqual(['Played {"ms":0}', 'StartSpeaking'])
    expect(speaker).toMatchObject({ isPaused: false, stops: 1 })
  })

  it("the server's Hello holds for its connection only: after a reconnection, no reply means drop", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { mic, speaker, sockets, connect } = fakeCall()
    const first = await connect()
    first.receive(RESUME)
    first.receive(audio(100))
    startSpeaking(mic)
    expect(speaker.isPaused).toBe(true)
    // The paused answer goes with the connection: its server can no longer settle it
    first.serverClose(1006)
    expect(speaker).toMatchObject({ isPaused: false, stops: 1, queuedMs: 0 })
    stopSpeaking(mic)
    vi.advanceTimersByTime(500)
    const second = sockets[1]!
    second.open()
    second.receive('Resume') // nothing paused on this connection: nothing plays
    expect(speaker.isPlaying).toBe(false)
    second.receive(audio(100))
    startSpeaking(mic)
    expect(second.texts.slice(-2)).toEqual(['Played {"ms":0}', 'StartSpeaking'])
    expect(speaker).toMatchObject({ isPaused: false, stops: 2 })
  })
})
