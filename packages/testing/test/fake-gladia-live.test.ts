import { WebSocket } from 'ws'
import { afterEach, describe, expect, it } from 'vitest'
import { createFakeGladiaLive, type FakeGladiaLive } from '../src/index.js'
import { connectRawClient } from './raw-client.js'

let fake: FakeGladiaLive | undefined

afterEach(async () => {
  await fake?.close()
  fake = undefined
})

async function createSession(fake: FakeGladiaLive, body: unknown = {}, key = 'gl-key') {
  const response = await fetch(`${fake.baseURL}/v2/live`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-gladia-key': key },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

describe('FakeGladiaLive', () => {
  it('creates a session with POST /v2/live and answers its WebSocket URL on the same fake', async () => {
    fake = await createFakeGladiaLive()
    const created = await createSession(fake, { sample_rate: 16000 })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ id: expect.any(String), created_at: expect.any(String) })
    expect(created.body.url).toBe(
      `${fake.baseURL.replace('http', 'ws')}/v2/live?token=${created.body.id}`
    )
    expect(fake.initRequests[0]).toMatchObject({ body: { sample_rate: 16000 }, status: 201 })
    expect(fake.initRequests[0]!.headers['x-gladia-key']).toBe('gl-key')
  })

  it('acknowledges binary and audio_chunk JSON audio with byte ranges, then plays the reply after stop_recording', async () => {
    fake = await createFakeGladiaLive()
    fake.replyTranscript('hello there', { finals: ['hello', 'there'] })
    const { body } = await createSession(fake, {
      messages_config: { receive_partial_transcripts: true, receive_lifecycle_events: true },
    })
    const client = await connectRawClient(body.url)
    client.ws.send(Buffer.alloc(640, 1))
    client.ws.send(
      JSON.stringify({
        type: 'audio_chunk',
        data: { chunk: Buffer.alloc(320, 2).toString('base64') },
      })
    )
    expect((await client.next('audio_chunk')).data.byte_range).toEqual([0, 640])
    expect((await client.next('audio_chunk')).data.byte_range).toEqual([640, 960])
    const partial = await client.next('transcript')
    expect(partial.data).toMatchObject({ is_final: false, utterance: { text: 'hello' } })
    client.ws.send(JSON.stringify({ type: 'stop_recording' }))
    expect(await client.next('stop_recording')).toMatchObject({ acknowledged: true })
    await client.next('end_recording')
    const finals = client.messages.filter((m) => m.type === 'transcript' && m.data.is_final)
    expect(finals.map((m) => m.data.utterance.text)).toEqual(['hello', 'there'])
    await client.next('end_session')
    expect(await client.closed).toBe(1000)
    expect(fake.sessions[0]!.audio).toEqual(
      Buffer.concat([Buffer.alloc(640, 1), Buffer.alloc(320, 2)])
    )
  })

  it('refuses a wrong key with 401, a scripted status, and an unknown session token with 404', async () => {
    fake = await createFakeGladiaLive({ apiKey: 'right' })
    expect((await createSession(fake, {}, 'wrong')).status).toBe(401)
    fake.rejectSessions(429)
    expect((await createSession(fake, {}, 'right')).status).toBe(429)
    const refused = new WebSocket(`${fake.baseURL.replace('http', 'ws')}/v2/live?token=nope`)
    refused.on('error', () => {})
    const status = await new Promise<number>((resolve) =>
      refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    )
    expect(status).toBe(404)
    refused.terminate()
  })

  it('lets a socket reconnect to the same URL and resume the session', async () => {
    fake = await createFakeGladiaLive()
    fake.reply({ type: 'stop' }, { type: 'final', text: 'resumed' }, { type: 'end' })
    const { body } = await createSession(fake)
    const first = await connectRawClient(body.url)
    first.ws.send(Buffer.alloc(100, 1))
    await first.next('audio_chunk')
    first.ws.terminate()
    const second = await connectRawClient(body.url)
    second.ws.send(Buffer.alloc(50, 2))
    expect((await second.next('audio_chunk')).data.byte_range).toEqual([100, 150])
    second.ws.send(JSON.stringify({ type: 'stop_recording' }))
    expect((await second.next('transcript')).data.utterance.text).toBe('resumed')
    expect(fake.sessions[0]!.connections).toBe(2)
  })
})
