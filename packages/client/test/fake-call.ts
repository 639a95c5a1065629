import { expect, vi } from 'vitest'
import { MicdropClient } from '../src/client/MicdropClient.js'
import type { MicdropClientError } from '../src/client/MicdropClientError.js'
import type { MicdropOptions } from '../src/client/types.js'
import { FakeMic, FakeSpeaker, FakeWebSocket, memoryStorage } from './fakes.js'

/** The params every fake call sends: its first frame. */
export const PARAMS = JSON.stringify({ token: 'secret' })

/** A client on fake devices and fake sockets (`sockets`: one per connection attempt). */
export function fakeCall(options: MicdropOptions = {}, storage = memoryStorage()) {
  const mic = new FakeMic()
  const speaker = new FakeSpeaker()
  const sockets: FakeWebSocket[] = []
  const client = new MicdropClient(
    { url: 'ws://server/call', params: { token: 'secret' }, ...options },
    {
      mic,
      speaker,
      storage,
      random: () => 0.5,
      createWebSocket: (url) => {
        const ws = new FakeWebSocket(url)
        sockets.push(ws)
        return ws
      },
    }
  )
  const errors: MicdropClientError[] = []
  client.on('Error', (error) => errors.push(error))
  /** Starts the call and opens the first socket. */
  const connect = async () => {
    const started = client.start()
    await vi.waitFor(() => expect(sockets).toHaveLength(1))
    sockets[0]!.open()
    await started
    return sockets[0]!
  }
  /**
   * Runs the speaker and the (fake) clock together for `ms`, 1 ms at a time, as playback and
   * the page's timers do. Needs `vi.useFakeTimers()`.
   */
  const play = (ms: number) => {
    for (let i = 0; i < ms; i++) {
      speaker.elapse(1)
      vi.advanceTimersByTime(1)
    }
  }
  return { client, mic, speaker, sockets, errors, connect, storage, play }
}

/** The user's confirmed speech starts (the VAD's 100 ms confirmation). */
export const startSpeaking = (mic: FakeMic) => mic.frames(5, -20)
/** The user's speech ends (the VAD's 600 ms of quiet). */
export const stopSpeaking = (mic: FakeMic) => mic.frames(31, -90)
/** One whole utterance. */
export const speak = (mic: FakeMic) => {
  mic.frames(10, -20)
  mic.frames(31, -90)
}

/** `ms` of assistant audio, as the server sends it (PCM16 16 kHz: 32 bytes per ms). */
export const audio = (ms: number) => new Int16Array(ms * 16).buffer
