import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeCall } from '../../test/fake-call.js'
import type { FakeMic, FakeWebSocket } from '../../test/fakes.js'

// PauseSpeaking and ResumeSpeaking (docs/protocol.md): sent only to a server whose Hello says
// `preemptive`, so that a Micdrop server, or an openmic server that does not answer at pauses,
// never sees them and gets the pause as audio of the utterance.

afterEach(() => {
  vi.useRealTimers()
})

const PREEMPTIVE_HELLO = 'Hello {"resume":true,"settlesBargeIns":true,"preemptive":true}'
const PLAIN_HELLO = 'Hello {"resume":true,"settlesBargeIns":true}'

/** What the client sent after its params and Hello, consecutive audio frames as one `audio`. */
function frames(ws: FakeWebSocket): string[] {
  const out: string[] = []
  for (const frame of ws.sent.slice(2)) {
    const name = typeof frame === 'string' ? frame : 'audio'
    if (name !== 'audio' || out.at(-1) !== 'audio') out.push(name)
  }
  return out
}

/** The audio the client sent, in ms. */
const sentMs = (ws: FakeWebSocket) =>
  ws.binaries.reduce((ms, frame) => ms + frame.byteLength / 32, 0)

/** 200 ms of speech, a 300 ms pause, 200 ms more, then the 600 ms of quiet that end it. */
function speakWithPause(mic: FakeMic) {
  mic.frames(10, -20)
  mic.frames(15, -90)
  mic.frames(10, -20)
  mic.frames(30, -90)
}

describe('pauses, reported to a server that answers at them', () => {
  it('to a server whose Hello says preemptive: PauseSpeaking, ResumeSpeaking, the pause not sent', async () => {
    const { mic, connect } = fakeCall()
    const ws = await connect()
    ws.receive(PREEMPTIVE_HELLO)
    speakWithPause(mic)
    expect(frames(ws)).toEqual([
      'StartSpeaking',
      'audio',
      'PauseSpeaking',
      'ResumeSpeaking',
      'audio',
      'PauseSpeaking',
      'StopSpeaking',
    ])
    // The audio: the speech and 200 ms of quiet, to the pause; then, the speech having come
    // back 100 ms later, those 100 ms (its pre-roll), the speech and 200 ms of quiet, to the
    // next pause. The rest of that quiet, the turn's end, is not sent.
    expect(sentMs(ws)).toBe(200 + 200 + 100 + 200 + 200)
  })

  for (const [server, hello] of [
    ['a Micdrop server (no Hello)', undefined],
    ['an openmic server that does not answer at pauses', PLAIN_HELLO],
  ] as const) {
    it(`never to ${server}: the pause is audio of the utterance`, async () => {
      const { mic, connect } = fakeCall()
      const ws = await connect()
      if (hello) ws.receive(hello)
      speakWithPause(mic)
      expect(frames(ws)).toEqual(['StartSpeaking', 'audio', 'StopSpeaking'])
      expect(sentMs(ws)).toBe(200 + 300 + 200 + 600) // from the speech to its end, whole
    })
  }

  it('asks each connection: a server reached after a reconnect is told only if it says so', async () => {
    const { mic, sockets, connect } = fakeCall()
    const first = await connect()
    first.receive(PREEMPTIVE_HELLO)
    vi.useFakeTimers()
    first.serverClose(1012)
    await vi.advanceTimersByTimeAsync(500)
    const second = sockets[1]!
    second.open()
    second.receive(PLAIN_HELLO)
    speakWithPause(mic)
    expect(frames(second)).toEqual(['StartSpeaking', 'audio', 'StopSpeaking'])
  })
})
