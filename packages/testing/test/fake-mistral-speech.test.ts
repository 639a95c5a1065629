import { WebSocket } from 'ws'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createFakeMistralRealtime,
  createFakeMistralSpeech,
  float32Sine,
  type FakeMistralRealtime,
  type FakeMistralSpeech,
} from '../src/index.js'
import { connectRawClient } from './raw-client.js'

/** A raw client of the fake realtime server. */
const connect = (fake: FakeMistralRealtime) =>
  connectRawClient(
    `${fake.serverURL.replace('http', 'ws')}/v1/audio/transcriptions/realtime?model=m`
  )

let realtime: FakeMistralRealtime | undefined
let speech: FakeMistralSpeech | undefined
afterEach(async () => {
  await realtime?.close()
  await speech?.close()
  realtime = speech = undefined
})

describe('createFakeMistralRealtime', () => {
  it('speaks the session protocol: created, updated, and an error for a late update', async () => {
    realtime = await createFakeMistralRealtime()
    const client = await connect(realtime)
    await client.atLeast(1)
    expect(client.messages[0]).toMatchObject({
      type: 'session.created',
      session: { model: 'm', audio_format: { encoding: 'pcm_s16le', sample_rate: 16000 } },
    })
    client.send({ type: 'session.update', session: { target_streaming_delay_ms: 240 } })
    await client.atLeast(2)
    expect(client.messages[1]).toMatchObject({
      type: 'session.updated',
      session: { target_streaming_delay_ms: 240 },
    })
    client.send({ type: 'input_audio.append', audio: Buffer.from([1, 2]).toString('base64') })
    client.send({ type: 'session.update', session: { target_streaming_delay_ms: 80 } })
    await client.atLeast(3)
    expect(client.messages[2]).toMatchObject({ type: 'error', error: { code: 400 } })
  })

  it('records the audio of each flush and answers with the scripted transcript', async () => {
    realtime = await createFakeMistralRealtime()
    realtime.replyTranscript('Hi there', { language: 'en' })
    const client = await connect(realtime)
    client.send({ type: 'input_audio.append', audio: Buffer.from([1, 2]).toString('base64') })
    client.send({ type: 'input_audio.append', audio: Buffer.from([3, 4]).toString('base64') })
    client.send({ type: 'input_audio.flush' })
    const received = await client.atLeast(4)
    expect(received.slice(1).map((e) => [e.type, e.text])).toEqual([
      ['transcription.text.delta', 'Hi '],
      ['transcription.text.delta', 'there'],
      ['transcription.done', 'Hi there'],
    ])
    expect(received[3].language).toBe('en')
    expect(realtime.flushes).toEqual([Buffer.from([1, 2, 3, 4])])
  })

  it('ends the session on input_audio.end, and answers a flush with nothing scripted with an error', async () => {
    realtime = await createFakeMistralRealtime()
    const client = await connect(realtime)
    client.send({ type: 'input_audio.flush' })
    const received = await client.atLeast(2)
    expect(received[1]).toMatchObject({ type: 'error', error: { message: /no scripted/ } })
    client.send({ type: 'input_audio.end' })
    expect(await client.closed).toBe(1000)
    expect(realtime.sessions[0]!.ended).toBe(true)
  })

  it('refuses upgrades with the scripted status', async () => {
    realtime = await createFakeMistralRealtime()
    realtime.rejectUpgrades(429)
    const url = `${realtime.serverURL.replace('http', 'ws')}/v1/audio/transcriptions/realtime`
    const ws = new WebSocket(url)
    ws.on('error', () => {})
    const status = await new Promise((resolve) =>
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode))
    )
    ws.terminate()
    expect(status).toBe(429)
    expect(realtime.sessions).toEqual([])
    expect(realtime.upgrades).toBe(1)
  })
})

describe('createFakeMistralSpeech', () => {
  it('streams the scripted samples as base64 speech.audio.delta events, then speech.audio.done', async () => {
    speech = await createFakeMistralSpeech()
    const samples = float32Sine(240)
    speech.replySpeech(samples, { chunks: 2 })
    const response = await fetch(`${speech.serverURL}/v1/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'Hi.', stream: true, response_format: 'pcm' }),
    })
    const frames = (await response.text()).split('\n\n').filter(Boolean)
    expect(frames.map((frame) => frame.split('\n')[0])).toEqual([
      'event: speech.audio.delta',
      'event: speech.audio.delta',
      'event: speech.audio.done',
    ])
    const data = frames.map((frame) => JSON.parse(frame.split('\n')[1]!.slice('data: '.length)))
    const audio = Buffer.concat(data.slice(0, 2).map((e) => Buffer.from(e.audio_data, 'base64')))
    expect(audio).toEqual(Buffer.from(samples.buffer))
    expect(speech.requests[0]!.body.input).toBe('Hi.')
  })

  it('answers 422 to a request without input, like the real API', async () => {
    speech = await createFakeMistralSpeech()
    const response = await fetch(`${speech.serverURL}/v1/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true }),
    })
    expect(response.status).toBe(422)
  })
})
