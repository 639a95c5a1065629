import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encodeMulaw } from '@openmic/core/provider'
import { FakeTwilioCall } from '../../src/twilio/index.js'
import { startMediaServer, tone16k } from './media-server.js'

let server: Awaited<ReturnType<typeof startMediaServer>>
const calls: FakeTwilioCall[] = []

async function connect(options: Partial<Parameters<typeof FakeTwilioCall.connect>[0]> = {}) {
  const call = await FakeTwilioCall.connect({ url: server.url, ...options })
  calls.push(call)
  return { call, connection: await server.connection() }
}

/** μ-law of `ms` of audio the server sends, as one base64 payload. */
function payload(ms: number): string {
  return Buffer.alloc(ms * 8, 0x2a).toString('base64')
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

beforeEach(async () => {
  server = await startMediaServer()
})

afterEach(async () => {
  await Promise.all(calls.splice(0).map((call) => call.drop()))
  await server.close()
})

describe('FakeTwilioCall: what Twilio sends', () => {
  it('opens with connected, then start with the stream metadata', async () => {
    const { call, connection } = await connect({
      customParameters: { caller: 'Jane' },
      headers: { 'x-twilio-signature': 'sig' },
    })
    await call.waitFor(() => connection.messages.length >= 3)
    const [connected, start] = connection.messages.map((m) => m.message)
    expect(connected).toEqual({ event: 'connected', protocol: 'Call', version: '1.0.0' })
    expect(start).toEqual({
      event: 'start',
      sequenceNumber: '1',
      start: {
        streamSid: call.streamSid,
        accountSid: call.accountSid,
        callSid: call.callSid,
        tracks: ['inbound'],
        customParameters: { caller: 'Jane' },
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      },
      streamSid: call.streamSid,
    })
    expect(call.callSid).toMatch(/^CA[0-9a-f]{32}$/)
    expect(call.streamSid).toMatch(/^MZ[0-9a-f]{32}$/)
    expect(connection.url).toBe('/twilio/stream')
    expect(connection.headers['x-twilio-signature']).toBe('sig')
  })

  it('sends 20 ms media frames in real time, numbered, silence when nothing is said', async () => {
    const { call, connection } = await connect()
    await sleep(500)
    const media = connection.of('media')
    // About 25 frames in 500 ms: loose bounds, timers on a loaded machine are late.
    expect(media.length).toBeGreaterThanOrEqual(12)
    expect(media.length).toBeLessThanOrEqual(40)
    media.forEach((message, i) => {
      expect(message.streamSid).toBe(call.streamSid)
      expect(message.media.track).toBe('inbound')
      expect(message.media.chunk).toBe(String(i + 1))
      expect(message.media.timestamp).toBe(String(i * 20))
      expect(message.sequenceNumber).toBe(String(i + 2))
      expect(Buffer.from(message.media.payload, 'base64')).toEqual(Buffer.alloc(160, 0xff))
    })
  })

  it('does not drift: the frame count follows the elapsed time', async () => {
    const { call, connection } = await connect()
    await sleep(1000)
    const frames = connection.of('media').length
    const elapsed = call.nowMs()
    // Drift-free: the count is the elapsed time over 20 ms, give or take a frame or two
    // (ticks late on a busy machine are caught up, never lost).
    expect(Math.abs(frames - elapsed / 20)).toBeLessThanOrEqual(5)
  })

  it('says queued speech at real-time pace, in order, with silence in between', async () => {
    const { call, connection } = await connect()
    const mulaw = Buffer.alloc(400, 0x10) // 50 ms
    const first = call.say(mulaw, { format: 'mulaw' })
    call.silence(100)
    const second = call.say(tone16k(200))
    const third = call.say(mulaw, { format: 'mulaw', atMs: 1000 })
    expect(second.startMs).toBe(first.endMs + 100)
    expect(second.endMs - second.startMs).toBe(200)
    expect(third.startMs).toBe(1000)
    await call.waitFor(() => !call.speaking, 5000, 'end of speech')
    // Nothing was sent ahead of time: the last utterance ended a second into the stream.
    expect(call.nowMs()).toBeGreaterThanOrEqual(1000)
    await sleep(60)
    const sent = Buffer.concat(
      connection.of('media').map((m) => Buffer.from(m.media.payload, 'base64'))
    )
    const at = (ms: number) => sent.subarray(ms * 8)
    expect(at(first.startMs).subarray(0, 400)).toEqual(mulaw)
    expect(sent.subarray(first.endMs * 8, second.startMs * 8)).toEqual(Buffer.alloc(800, 0xff))
    expect(at(second.startMs).subarray(0, 1600)).not.toEqual(Buffer.alloc(1600, 0xff))
    expect(at(third.startMs).subarray(0, 400)).toEqual(mulaw)
    expect(call.utterances).toHaveLength(3)
  })

  it('sends dtmf, then stop and a close on hang-up', async () => {
    const { call, connection } = await connect()
    call.sendDtmf('5')
    const end = await call.hangUp()
    expect(end).toEqual({ code: 1000, reason: '', by: 'stop' })
    expect(await connection.closed).toBe(1000)
    const dtmf = connection.of('dtmf')[0]
    expect(dtmf).toMatchObject({
      event: 'dtmf',
      streamSid: call.streamSid,
      dtmf: { track: 'inbound_track', digit: '5' },
    })
    const last = connection.messages.at(-1)!.message
    expect(last).toEqual({
      event: 'stop',
      sequenceNumber: last.sequenceNumber,
      stop: { accountSid: call.accountSid, callSid: call.callSid },
      streamSid: call.streamSid,
    })
    const sequence = connection.messages.slice(1).map((m) => Number(m.message.sequenceNumber))
    expect(sequence).toEqual(sequence.map((_, i) => i + 1))
    expect(call.hangUps).toEqual([{ atMs: expect.any(Number), by: 'caller' }])
  })

  it('drops the socket without stop or close frame', async () => {
    const { call, connection } = await connect()
    const end = await call.drop()
    expect(end.by).toBe('drop')
    expect(await connection.closed).toBe(1006)
    expect(connection.of('stop')).toEqual([])
  })

  it('sees the server close the stream', async () => {
    const { call, connection } = await connect()
    connection.socket.close(4000, 'bye')
    expect(await call.closed).toEqual({ code: 4000, reason: 'bye', by: 'server' })
  })
})

describe('FakeTwilioCall: what it plays', () => {
  it('plays the audio at real-time pace and sends back a mark once it played', async () => {
    const { call, connection } = await connect()
    const sentAt = call.nowMs()
    connection.send({ event: 'media', streamSid: call.streamSid, media: { payload: payload(200) } })
    connection.send({ event: 'mark', streamSid: call.streamSid, mark: { name: 'end' } })
    await call.waitFor(() => call.marks.length === 1, 5000, 'mark')
    // 200 ms of audio: the mark cannot come back before most of it played.
    expect(call.marks[0]!.atMs - sentAt).toBeGreaterThanOrEqual(150)
    expect(call.marks[0]).toMatchObject({ name: 'end', cleared: false })
    expect(call.heardMs).toBe(200)
    expect(call.heard).toHaveLength(10)
    call.heard.forEach((frame, i) => {
      expect(frame.mulaw).toHaveLength(160)
      expect(frame.offsetMs).toBe(i * 20)
      if (i > 0) expect(frame.atMs - call.heard[i - 1]!.atMs).toBe(20)
    })
    await call.waitFor(() => connection.of('mark').length === 1)
    expect(connection.of('mark')[0]).toEqual({
      event: 'mark',
      sequenceNumber: expect.stringMatching(/^\d+$/),
      streamSid: call.streamSid,
      mark: { name: 'end' },
    })
    expect(call.heardAudio().length).toBe(200 * 16 * 2)
    expect(call.protocolErrors).toEqual([])
  })

  it('sends a mark back at once when nothing is queued', async () => {
    const { call, connection } = await connect()
    await sleep(50)
    connection.send({ event: 'mark', streamSid: call.streamSid, mark: { name: 'now' } })
    await call.waitFor(() => call.marks.length === 1, 2000, 'mark')
    const received = call.received.at(-1)!.atMs
    // No audio to wait for: back within the time of handling a message, far under a frame.
    expect(call.marks[0]!.atMs - received).toBeLessThan(100)
  })

  it('keeps marks in order between pieces of audio', async () => {
    const { call, connection } = await connect()
    for (const name of ['a', 'b', 'c']) {
      connection.send({
        event: 'media',
        streamSid: call.streamSid,
        media: { payload: payload(50) },
      })
      connection.send({ event: 'mark', streamSid: call.streamSid, mark: { name } })
    }
    await call.waitFor(() => call.marks.length === 3, 5000, 'marks')
    expect(call.marks.map((mark) => mark.name)).toEqual(['a', 'b', 'c'])
    const heardAt = (ms: number) => call.heard.find((f) => f.offsetMs + f.mulaw.length / 8 >= ms)!
    // Each mark after its own 50 ms has played (the frame holding its end is over).
    call.marks.forEach((mark, i) => {
      const frame = heardAt(50 * (i + 1))
      expect(mark.atMs).toBeGreaterThanOrEqual(frame.atMs + 20 - 5)
    })
  })

  it('clear drops the queued audio and sends back the waiting marks at once', async () => {
    const { call, connection } = await connect()
    connection.send({
      event: 'media',
      streamSid: call.streamSid,
      media: { payload: payload(2000) },
    })
    connection.send({ event: 'mark', streamSid: call.streamSid, mark: { name: 'long' } })
    connection.send({ event: 'media', streamSid: call.streamSid, media: { payload: payload(500) } })
    connection.send({ event: 'mark', streamSid: call.streamSid, mark: { name: 'longer' } })
    await sleep(200)
    connection.send({ event: 'clear', streamSid: call.streamSid })
    await call.waitFor(() => call.marks.length === 2, 1000, 'marks of the cleared audio')
    expect(call.marks.map(({ name, cleared }) => ({ name, cleared }))).toEqual([
      { name: 'long', cleared: true },
      { name: 'longer', cleared: true },
    ])
    // Sent back long before the 2.5 s of audio could have played.
    expect(call.marks[1]!.atMs).toBeLessThan(1500)
    expect(call.cleared).toHaveLength(1)
    const [cleared] = call.cleared
    expect(cleared!.marks).toEqual(['long', 'longer'])
    expect(cleared!.droppedMs + call.heardMs).toBe(2500)
    // What had played when the clear came: all that will ever play of it
    expect(cleared!.heardMs).toBe(call.heardMs)
    expect(cleared!.heardMs).toBeGreaterThan(0)
    expect(call.queuedMs).toBe(0)
    const heardAtClear = call.heardMs
    await sleep(100)
    expect(call.heardMs).toBe(heardAtClear)
    expect(call.protocolErrors).toEqual([])
  })

  it('records what Twilio would refuse as protocol errors', async () => {
    const { call, connection } = await connect()
    connection.send('not json')
    connection.send({ event: 'media', streamSid: 'MZother', media: { payload: payload(20) } })
    connection.send({ event: 'speak', streamSid: call.streamSid })
    connection.send({ event: 'media', streamSid: call.streamSid, media: {} })
    connection.send({ event: 'mark', streamSid: call.streamSid, mark: {} })
    connection.socket.send(Buffer.from([1, 2, 3]))
    await call.waitFor(() => call.protocolErrors.length === 6, 2000, 'protocol errors')
    expect(call.protocolErrors.map((error) => error.problem)).toEqual([
      'not JSON',
      `media with streamSid "MZother", not ${call.streamSid}`,
      'unknown event "speak"',
      'media without a base64 media.payload',
      'mark without a string mark.name',
      'a binary frame (Twilio reads JSON text frames)',
    ])
    expect(call.received).toHaveLength(6)
    expect(call.heardMs).toBe(0)
  })
})

describe('FakeTwilioCall: caller audio formats', () => {
  it('sends PCM16 16 kHz as μ-law 8 kHz of the same length', async () => {
    const { call } = await connect()
    const utterance = call.say(tone16k(100))
    expect(utterance.mulaw).toHaveLength(800)
    // A 440 Hz tone survives the resampling: compare with encoding a tone made at 8 kHz.
    const tone8k = Buffer.alloc(1600)
    for (let i = 0; i < 800; i++) {
      tone8k.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)), i * 2)
    }
    const expected = encodeMulaw(tone8k)
    let close = 0
    for (let i = 100; i < 700; i++) {
      if (Math.abs(utterance.mulaw[i]! - expected[i]!) <= 2) close++
    }
    expect(close).toBeGreaterThan(500)
  })
})
