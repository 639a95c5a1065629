import { describe, expect, it } from 'vitest'
import { audio, fakeCall, startSpeaking, stopSpeaking } from '../../test/fake-call.js'

// A server whose Hello says `settlesBargeIns` answers every barge-in (StartSpeaking, Mute) with
// one Resume or Interrupt, in order (docs/protocol.md, "Barge-in"). The client keeps each open
// until then: what of a dropped answer is still on its way is never played.

const SETTLES = 'Hello {"resume":true,"settlesBargeIns":true}'

describe('barge-ins settled by the server', () => {
  it('found by the call simulator: audio of a cut answer still on its way is not played after a short cough', async () => {
    const { mic, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(SETTLES)
    ws.receive(audio(100))
    speaker.finish() // nothing queued: the barge-in drops
    startSpeaking(mic)
    stopSpeaking(mic)
    // Sent before the server handled the StartSpeaking, arriving once the user stopped
    ws.receive(audio(100))
    expect(speaker.played).toHaveLength(1)
    expect(speaker.isPlaying).toBe(false)
    // The server settles the barge-in: what comes next is the next answer
    ws.receive('Interrupt')
    ws.receive(audio(100))
    expect(speaker.played).toHaveLength(2)
    expect(speaker.isPlaying).toBe(true)
  })

  it('with an older server (no settlesBargeIns): plays what comes once the user stopped', async () => {
    const { mic, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive('Hello {"resume":true}')
    ws.receive(audio(100))
    speaker.finish()
    startSpeaking(mic)
    stopSpeaking(mic)
    // It never sends Interrupt for a drop: waiting for one would silence the call
    ws.receive(audio(100))
    expect(speaker.played).toHaveLength(2)
  })

  it('Mute is a barge-in too: nothing of the answer plays after resume() until it is settled', async () => {
    const { client, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(SETTLES)
    ws.receive(audio(100))
    client.pause()
    expect(ws.texts.at(-1)).toBe('Mute')
    client.resume()
    ws.receive(audio(100))
    expect(speaker.played).toHaveLength(1)
    ws.receive('Interrupt')
    ws.receive(audio(100))
    expect(speaker.played).toHaveLength(2)
  })

  it('found by the call simulator: speaking again before the pause is settled keeps the answer paused until both are', async () => {
    const { mic, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(SETTLES)
    ws.receive(audio(100))
    startSpeaking(mic) // pauses
    stopSpeaking(mic)
    startSpeaking(mic) // still paused: a second barge-in on the same pause
    expect(ws.texts.filter((text) => text === 'StartSpeaking')).toHaveLength(2)
    // The first is settled (the server cut what it held): the queue goes, the pause stays
    ws.receive('Interrupt')
    expect(speaker).toMatchObject({ isPaused: true, queuedMs: 0 })
    ws.receive(audio(100))
    expect(speaker).toMatchObject({ isPaused: true, queuedMs: 100 })
    // The second is settled: noise, what came after the first plays
    ws.receive('Resume')
    expect(speaker).toMatchObject({ isPaused: false, queuedMs: 100, isPlaying: true })
  })

  it('two Resumes for two barge-ins on one pause: it plays on at the second', async () => {
    const { mic, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(SETTLES)
    ws.receive(audio(100))
    startSpeaking(mic)
    stopSpeaking(mic)
    startSpeaking(mic)
    ws.receive('Resume')
    expect(speaker.isPaused).toBe(true)
    ws.receive('Resume')
    expect(speaker).toMatchObject({ isPaused: false, isPlaying: true })
  })

  it('found by the call simulator: hanging up says how far the answer played', async () => {
    const { client, speaker, connect } = fakeCall()
    const ws = await connect()
    ws.receive(SETTLES)
    ws.receive(audio(300))
    speaker.queuedMs = 180
    await client.stop()
    // The server keeps what was heard of it, not what it had last been told
    expect(ws.texts.at(-1)).toBe('Played {"ms":120}')
    expect(ws.closedWith).toBe(1000)
  })
})
