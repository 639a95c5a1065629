import { WebSocket } from 'ws'
import { afterEach, describe, expect, it } from 'vitest'
import { createFakeOpenaiRealtime, type FakeOpenaiRealtime } from '../src/index.js'
import { connectRawClient } from './raw-client.js'

const connect = (url: string, key = 'sk-test') =>
  connectRawClient(url, { Authorization: `Bearer ${key}` })

let fake: FakeOpenaiRealtime | undefined

afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const url = (fake: FakeOpenaiRealtime) =>
  `${fake.baseURL.replace('http', 'ws')}/realtime?intent=transcription`

/** `ms` of PCM16 24 kHz audio. */
const audio = (ms: number, value = 1) => Buffer.alloc(ms * 48, value)

describe('createFakeOpenaiRealtime', () => {
  it('speaks the transcription protocol and records what the client sent', async () => {
    fake = await createFakeOpenaiRealtime()
    fake.replyTranscript('Hello world', { partials: ['Hello', ' world'] })
    const client = await connect(url(fake))
    expect((await client.next('session.created')).session.type).toBe('transcription')
    const session = { type: 'transcription', audio: { input: { turn_detection: null } } }
    client.send({ type: 'session.update', session })
    expect((await client.next('session.updated')).session.audio).toEqual(session.audio)
    client.send({ type: 'input_audio_buffer.append', audio: audio(60, 1).toString('base64') })
    client.send({ type: 'input_audio_buffer.append', audio: audio(60, 2).toString('base64') })
    client.send({ type: 'input_audio_buffer.commit' })
    const { item_id } = await client.next('input_audio_buffer.committed')
    const deltas = [
      await client.next('conversation.item.input_audio_transcription.delta'),
      await client.next('conversation.item.input_audio_transcription.delta'),
    ]
    expect(deltas.map((delta) => [delta.item_id, delta.delta])).toEqual([
      [item_id, 'Hello'],
      [item_id, ' world'],
    ])
    const completed = await client.next('conversation.item.input_audio_transcription.completed')
    expect(completed).toMatchObject({ item_id, transcript: 'Hello world' })
    expect(fake.sessionUpdates).toEqual([session])
    expect(fake.commits).toEqual([
      { connection: 0, itemId: item_id, audio: Buffer.concat([audio(60, 1), audio(60, 2)]) },
    ])
    expect(fake.handshakes[0]).toMatchObject({
      url: '/v1/realtime?intent=transcription',
      status: 101,
    })
    client.ws.close()
  })

  it('refuses a commit under 100 ms, and an unknown model, as the API does', async () => {
    fake = await createFakeOpenaiRealtime()
    const client = await connect(url(fake))
    client.send({ type: 'input_audio_buffer.append', audio: audio(50).toString('base64') })
    client.send({ type: 'input_audio_buffer.commit', event_id: 'c1' })
    expect((await client.next('error')).error).toMatchObject({
      code: 'input_audio_buffer_commit_empty',
      event_id: 'c1',
    })
    const session = { type: 'transcription', audio: { input: { transcription: { model: 'x' } } } }
    client.send({ type: 'session.update', event_id: 's1', session })
    expect((await client.next('error')).error).toMatchObject({
      code: 'invalid_value',
      event_id: 's1',
    })
    expect(fake.commits).toEqual([])
    client.ws.close()
  })

  it('refuses a wrong key with HTTP 401 and an OpenAI error body', async () => {
    fake = await createFakeOpenaiRealtime({ apiKey: 'sk-right' })
    const ws = new WebSocket(url(fake), { headers: { Authorization: 'Bearer sk-wrong' } })
    ws.on('error', () => {}) // terminate() below reports the aborted handshake
    const response = await new Promise<{ status: number; body: string }>((resolve) => {
      ws.on('unexpected-response', (_req, res) => {
        let body = ''
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      })
    })
    ws.terminate()
    expect(response.status).toBe(401)
    expect(JSON.parse(response.body).error).toMatchObject({ code: 'invalid_api_key' })
    expect(fake.handshakes.map((handshake) => handshake.status)).toEqual([401])
    expect(fake.connections).toHaveLength(0)
  })

  it('plays a close, an in-band error and a reset from a script', async () => {
    fake = await createFakeOpenaiRealtime()
    fake.replySteps({ type: 'error', message: 'boom', code: 'server_error' }, { type: 'close' })
    const client = await connect(url(fake))
    const closed = new Promise<number>((resolve) => client.ws.once('close', resolve))
    client.send({ type: 'input_audio_buffer.append', audio: audio(200).toString('base64') })
    client.send({ type: 'input_audio_buffer.commit' })
    expect((await client.next('error')).error).toMatchObject({
      message: 'boom',
      code: 'server_error',
    })
    expect(await closed).toBe(1000)

    fake.replySteps({ type: 'reset' })
    const second = await connect(url(fake))
    const reset = new Promise<number>((resolve) => second.ws.once('close', resolve))
    second.ws.on('error', () => {})
    second.send({ type: 'input_audio_buffer.append', audio: audio(200).toString('base64') })
    second.send({ type: 'input_audio_buffer.commit' })
    expect(await reset).toBe(1006)
    expect(fake.connections.map((connection) => connection.closed)).toEqual([true, true])
  })
})
