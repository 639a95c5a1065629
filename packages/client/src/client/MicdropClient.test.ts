import { afterEach, describe, expect, it, vi } from 'vitest'
import { audio, fakeCall as setup, PARAMS, speak, startSpeaking } from '../../test/fake-call.js'
import { memoryStorage } from '../../test/fakes.js'
import { MicdropStorageKeys } from '../devices/storage.js'

const HELLO = 'Hello {"captions":true,"reportsPlaybackEnd":true}'

afterEach(() => {
  vi.useRealTimers()
})

describe('MicdropClient', () => {
  it('connects after the microphone and sends the params as the first frame, then Hello', async () => {
    const { client, mic, connect } = setup()
    const ws = await connect()
    expect(mic.isStarted).toBe(true)
    expect(ws.binaryType).toBe('arraybuffer')
    expect(ws.sent).toEqual([PARAMS, HELLO])
    expect(client.state).toMatchObject({ isStarted: true, isStarting: false, isProcessing: true })
    // The server has nothing to say first: listening
    ws.receive('SkipAnswer')
    expect(client.state).toMatchObject({ isProcessing: false, isListening: true })
  })

  it('sends Hello first when there are no params', async () => {
    const { connect } = setup({ params: undefined })
    const ws = await connect()
    expect(ws.sent).toEqual([HELLO])
  })

  it('listens only once connected: speech before the socket opens is not half-sent', async () => {
    const { client, mic, sockets } = setup()
    const started = client.start()
    await vi.waitFor(() => expect(sockets).toHaveLength(1))
    mic.frames(10, -20)
    sockets[0]!.open()
    await started
    mic.frames(31, -90)
    expect(sockets[0]!.sent).toEqual([PARAMS, HELLO])
    speak(mic)
    expect(sockets[0]!.texts).toEqual([PARAMS, HELLO, 'StartSpeaking', 'StopSpeaking'])
  })

  it('startMic opens the microphone before the call (levels, devices), and start() keeps it', async () => {
    const { client, mic, sockets } = setup()
    const levels: number[] = []
    mic.on('Volume', (level) => levels.push(level))
    await client.startMic({ deviceId: 'usb-mic' })
    expect(client.state).toMatchObject({
      isMicStarted: true,
      isStarted: false,
      micDeviceId: 'usb-mic',
    })
    expect(client.state.micDevices).toHaveLength(1)
    // Heard but not detected: nothing can be sent yet
    speak(mic)
    expect(levels.length).toBeGreaterThan(0)
    expect(client.state.isUserSpeaking).toBe(false)
    const started = client.start()
    await vi.waitFor(() => expect(sockets).toHaveLength(1))
    sockets[0]!.open()
    await started
    expect(mic.startCalls).toEqual(['usb-mic'])
    speak(mic)
    expect(sockets[0]!.texts).toContain('StartSpeaking')
  })

  it('sends StartSpeaking, 100 ms PCM16 chunks and StopSpeaking, then waits for the answer', async () => {
    const { client, mic, connect } = setup()
    const ws = await connect()
    ws.receive('SkipAnswer')
    speak(mic)
    const [, , start, ...rest] = ws.sent
    expect(start).toBe('StartSpeaking')
    expect(rest.at(-1)).toBe('StopSpeaking')
    const audio = rest.slice(0, -1) as ArrayBuffer[]
    expect(audio.length).toBeGreaterThan(5)
    expect(audio.slice(0, -1).every((chunk) => chunk.byteLength === 3200)).toBe(true)
    expect(client.state).toMatchObject({ isProcessing: true, isListening: false })
  })

  it('adds messages to the conversation and plays the answer', async () => {
    const { client, speaker, connect } = setup()
    const ws = await connect()
    const messages: unknown[] = []
    client.on('Message', (item) => messages.push(item))
    ws.receive('Message {"role":"user","content":"Hello"}')
    ws.receive(new Int16Array([1, 2, 3]).buffer)
    ws.receive('Message {"role":"assistant","content":"Hi!"}')
    expect(client.conversation).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi!' },
    ])
    expect(messages).toEqual(client.conversation)
    expect(Array.from(speaker.played[0]!)).toEqual([1, 2, 3])
    expect(client.state).toMatchObject({ isAssistantSpeaking: true, isProcessing: false })
  })

  it('barges in: confirmed speech stops playback at once and drops the rest of the answer', async () => {
    const { client, mic, speaker, connect } = setup()
    const ws = await connect()
    ws.receive(audio(100))
    expect(speaker.isPlaying).toBe(true)
    speaker.queuedMs = 60
    startSpeaking(mic)
    expect(speaker.isPlaying).toBe(false)
    // What was heard goes first: 100 ms received, 60 ms of it not played yet
    expect(ws.texts.slice(-2)).toEqual(['Played {"ms":40}', 'StartSpeaking'])
    ws.receive(audio(100))
    expect(speaker.played).toHaveLength(1)
    expect(client.state.isUserSpeaking).toBe(true)
  })

  it('counts the assistant audio of each connection for Played, and sends none before any', async () => {
    const { mic, speaker, sockets, connect } = setup()
    const ws = await connect()
    speak(mic)
    expect(ws.texts.some((text) => text.startsWith('Played'))).toBe(false)
    ws.receive(audio(100))
    ws.receive(audio(200))
    speaker.queuedMs = 250
    speak(mic)
    expect(ws.texts).toContain('Played {"ms":50}')
    ws.serverClose(1006)
    await vi.waitFor(() => expect(sockets).toHaveLength(2), { timeout: 3000 })
    sockets[1]!.open()
    sockets[1]!.receive(audio(50)) // on the new connection
    speaker.queuedMs = 0
    speak(mic)
    expect(sockets[1]!.texts).toContain('Played {"ms":50}')
  })

  it('pause() tells the server what was heard before Mute, and drops a paused answer', async () => {
    const { client, mic, speaker, connect } = setup()
    const ws = await connect()
    ws.receive('Hello {"resume":true}')
    ws.receive(audio(200))
    speaker.queuedMs = 120
    startSpeaking(mic) // the answer pauses over the user's voice
    expect(speaker.isPaused).toBe(true)
    client.pause()
    expect(ws.texts.slice(-2)).toEqual(['Played {"ms":80}', 'Mute'])
    expect(speaker).toMatchObject({ isPaused: false, stops: 1 })
    ws.receive('Resume') // too late: nothing to resume
    expect(speaker.isPaused).toBe(false)
  })

  it('handles CancelLastUserMessage, EndCall and ToolCall, and ignores unknown messages', async () => {
    const { client, connect } = setup()
    const ws = await connect()
    const events: unknown[] = []
    client.on('EndCall', () => events.push('EndCall'))
    client.on('ToolCall', (call) => events.push(call))
    ws.receive('Message {"role":"user","content":"hmm"}')
    ws.receive('CancelLastUserMessage')
    expect(client.conversation).toEqual([])
    ws.receive('ToolCall {"name":"book","parameters":{"day":1},"output":"ok"}')
    ws.receive('Partial {"x":1}')
    ws.receive('Nonsense')
    ws.receive('EndCall')
    expect(events).toEqual([{ name: 'book', parameters: { day: 1 }, output: 'ok' }, 'EndCall'])
    expect(client.state.isStarted).toBe(true)
  })

  it('emits EndCall once the goodbye finished playing, not when the server sends it', async () => {
    const { client, speaker, connect } = setup()
    const ws = await connect()
    const events: string[] = []
    client.on('EndCall', () => events.push(`EndCall, playing: ${speaker.isPlaying}`))
    ws.receive(audio(100))
    ws.receive('Message {"role":"assistant","content":"Goodbye!"}')
    ws.receive('EndCall')
    expect(events).toEqual([])
    speaker.finish()
    expect(events).toEqual(['EndCall, playing: false'])
    speaker.playAudio(new Int16Array(10))
    speaker.finish()
    expect(events).toHaveLength(1)
  })

  it('emits EndCall when the goodbye is cut short, and not after the app hung up itself', async () => {
    const { client, mic, speaker, connect } = setup()
    const ws = await connect()
    let ends = 0
    client.on('EndCall', () => ends++)
    ws.receive('Hello {"resume":true}')
    ws.receive(audio(100))
    ws.receive('EndCall')
    startSpeaking(mic) // the user speaks over the goodbye: paused, it may still play on
    expect(ends).toBe(0)
    ws.receive('Interrupt') // it was not noise: the goodbye is cut short
    expect(ends).toBe(1)
    mic.frames(31, -90)

    ws.receive(audio(100))
    expect(speaker.isPlaying).toBe(true)
    ws.receive('EndCall')
    await client.stop()
    expect(ends).toBe(1)
  })

  it('pauses (sends Mute, stops playback, stops listening) and resumes', async () => {
    const { client, mic, speaker, connect } = setup()
    const ws = await connect()
    ws.receive(audio(100))
    client.pause()
    expect(ws.texts.at(-1)).toBe('Mute')
    expect(speaker.isPlaying).toBe(false)
    ws.receive(audio(100))
    expect(speaker.played).toHaveLength(1)
    mic.frames(10, -20)
    expect(ws.texts).not.toContain('StartSpeaking')
    expect(client.state).toMatchObject({ isPaused: true, isListening: false })
    client.resume()
    mic.frames(10, -20)
    expect(ws.texts).toContain('StartSpeaking')
  })

  it('mute stops sending speech, unmute restores it', async () => {
    const { client, mic, connect } = setup()
    const ws = await connect()
    client.mute()
    speak(mic)
    expect(ws.texts).not.toContain('StartSpeaking')
    client.unmute()
    speak(mic)
    expect(ws.texts).toContain('StartSpeaking')
  })

  it('surfaces 4401 as Unauthorized, ends the call and does not reconnect', async () => {
    const { client, mic, sockets, errors, connect } = setup()
    const ws = await connect()
    ws.serverClose(4401, 'Invalid token')
    await vi.waitFor(() => expect(mic.isStarted).toBe(false))
    expect(errors.map((error) => error.code)).toEqual(['Unauthorized'])
    expect(client.state.error?.code).toBe('Unauthorized')
    expect(client.state.isStarted).toBe(false)
    expect(sockets).toHaveLength(1)
  })

  it('rejects start() when the server refuses before the socket opens', async () => {
    const { client, sockets } = setup()
    const started = client.start()
    await vi.waitFor(() => expect(sockets).toHaveLength(1))
    sockets[0]!.serverClose(4404)
    await expect(started).rejects.toMatchObject({ code: 'NotFound' })
  })

  it('reconnects with backoff after a dropped connection and re-sends the params, then Hello', async () => {
    const { client, sockets, connect } = setup()
    const first = await connect()
    vi.useFakeTimers()
    first.serverClose(1006)
    expect(client.state).toMatchObject({ isReconnecting: true, isStarted: true })
    await vi.advanceTimersByTimeAsync(499)
    expect(sockets).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(sockets).toHaveLength(2)
    // The new attempt fails too: the delay doubles
    sockets[1]!.serverClose(1006)
    await vi.advanceTimersByTimeAsync(999)
    expect(sockets).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    sockets[2]!.open()
    expect(sockets[2]!.sent).toEqual([PARAMS, HELLO])
    expect(client.state).toMatchObject({ isReconnecting: false, isStarted: true })
    expect(client.error).toBeUndefined()
  })

  it('listens again once reconnected (speech is not captured while offline)', async () => {
    const { mic, sockets, connect } = setup()
    const first = await connect()
    vi.useFakeTimers()
    first.serverClose(1012)
    speak(mic)
    await vi.advanceTimersByTimeAsync(500)
    sockets[1]!.open()
    speak(mic)
    expect(sockets[1]!.texts).toContain('StartSpeaking')
  })

  it('unmute or resume while reconnecting does not listen before the new socket opens', async () => {
    const { client, mic, sockets, connect } = setup()
    const first = await connect()
    vi.useFakeTimers()
    client.mute()
    client.pause()
    first.serverClose(1006)
    client.unmute()
    client.resume()
    // Speech while offline is not detected: it could not reach the server
    mic.frames(10, -20)
    expect(client.state.isUserSpeaking).toBe(false)
    await vi.advanceTimersByTimeAsync(500)
    sockets[1]!.open()
    speak(mic)
    // The new socket gets a whole utterance, never the middle of one begun offline
    expect(sockets[1]!.sent.slice(0, 3)).toEqual([PARAMS, HELLO, 'StartSpeaking'])
    expect(sockets[1]!.sent.at(-1)).toBe('StopSpeaking')
  })

  it('unmute before the first socket opens does not listen yet', async () => {
    const { client, mic, sockets } = setup()
    const started = client.start()
    await vi.waitFor(() => expect(sockets).toHaveLength(1))
    client.mute()
    client.unmute()
    mic.frames(10, -20)
    expect(client.state.isUserSpeaking).toBe(false)
    sockets[0]!.open()
    await started
    speak(mic)
    expect(sockets[0]!.sent.slice(0, 3)).toEqual([PARAMS, HELLO, 'StartSpeaking'])
  })

  it('gives up with a Connection error after maxAttempts', async () => {
    const { client, sockets, errors, connect } = setup({ reconnect: { maxAttempts: 2 } })
    const first = await connect()
    vi.useFakeTimers()
    first.serverClose(1006)
    await vi.advanceTimersByTimeAsync(500)
    sockets[1]!.serverClose(1006)
    await vi.advanceTimersByTimeAsync(1000)
    sockets[2]!.serverClose(1006)
    await vi.advanceTimersByTimeAsync(10000)
    expect(sockets).toHaveLength(3)
    expect(errors.map((error) => error.code)).toEqual(['Connection'])
    expect(client.state).toMatchObject({ isReconnecting: false, isStarted: false })
  })

  it('times out a connection that never opens and retries', async () => {
    const { client, sockets } = setup({ reconnect: { connectionTimeoutMs: 1000 } })
    vi.useFakeTimers()
    const started = client.start()
    await vi.waitFor(() => expect(sockets).toHaveLength(1))
    await vi.advanceTimersByTimeAsync(1000 + 500)
    expect(sockets).toHaveLength(2)
    sockets[1]!.open()
    await started
    expect(client.state.isStarted).toBe(true)
  })

  it('ends without error when the server closes normally', async () => {
    const { client, errors, connect } = setup()
    const ws = await connect()
    ws.serverClose(1000)
    await vi.waitFor(() => expect(client.state.isStarted).toBe(false))
    expect(errors).toEqual([])
  })

  it('reports a denied microphone with a clear error and never connects', async () => {
    const { client, mic, sockets, errors } = setup()
    mic.failWith = Object.assign(new Error('denied'), { name: 'NotAllowedError' })
    await expect(client.start()).rejects.toMatchObject({ code: 'MicPermissionDenied' })
    expect(errors[0]!.message).toMatch(/denied/)
    expect(sockets).toHaveLength(0)
    expect(client.state.isStarting).toBe(false)
  })

  it('refuses to start without a url', async () => {
    const { client } = setup({ url: undefined })
    await expect(client.start()).rejects.toMatchObject({ code: 'MissingUrl' })
  })

  it('remembers the chosen devices and falls back when the saved microphone is gone', async () => {
    const storage = memoryStorage()
    const { client, mic, speaker, connect } = setup({}, storage)
    await connect()
    await client.changeMicDevice('usb-mic')
    await client.changeSpeakerDevice('headset')
    expect(mic.startCalls.at(-1)).toBe('usb-mic')
    expect(storage.data[MicdropStorageKeys.MicDevice]).toBe('usb-mic')
    expect(client.state).toMatchObject({ micDeviceId: 'usb-mic', speakerDeviceId: 'headset' })
    expect(client.state.micDevices).toEqual([{ deviceId: 'default', label: 'Default mic' }])

    const next = setup({}, storage)
    const original = next.mic.start.bind(next.mic)
    next.mic.start = async (deviceId?: string) => {
      if (deviceId === 'usb-mic') throw Object.assign(new Error('gone'), { name: 'NotFoundError' })
      return original(deviceId)
    }
    await next.connect()
    expect(next.mic.deviceId).toBe('default')
    expect(next.speaker.deviceId).toBe('headset')
    expect(storage.data[MicdropStorageKeys.MicDevice]).toBeUndefined()
    void speaker
  })

  it('with disableInterruption, does not listen while the assistant speaks', async () => {
    const { mic, speaker, connect } = setup({ disableInterruption: true })
    vi.useFakeTimers()
    const ws = await connect()
    ws.receive(audio(100))
    mic.frames(10, -20)
    expect(ws.texts).not.toContain('StartSpeaking')
    speaker.finish()
    await vi.advanceTimersByTimeAsync(300)
    mic.frames(10, -20)
    expect(ws.texts).toContain('StartSpeaking')
  })

  it('emits StateChange with the new and previous state, only on change', async () => {
    const { client, connect } = setup()
    const ws = await connect()
    const changes: Array<[boolean, boolean]> = []
    client.on('StateChange', (state, previous) =>
      changes.push([state.isProcessing, previous.isProcessing])
    )
    ws.receive('SkipAnswer')
    ws.receive('SkipAnswer')
    expect(changes).toEqual([[false, true]])
  })
})
