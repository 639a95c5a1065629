import { afterEach, describe, expect, it } from 'vitest'
import { createFakeOpenaiRealtime, type FakeOpenaiRealtime } from '../src/index.js'
import { connectRawClient } from './raw-client.js'

let fake: FakeOpenaiRealtime | undefined

afterEach(async () => {
  await fake?.close()
  fake = undefined
})

/** A raw client of a conversation session. */
const connect = (fake: FakeOpenaiRealtime) =>
  connectRawClient(`${fake.baseURL.replace('http', 'ws')}/realtime?model=gpt-realtime`, {
    Authorization: 'Bearer sk-test',
  })

const message = (id: string, role: string, text: string) => ({
  id,
  type: 'message',
  role,
  content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
})

describe('createFakeOpenaiRealtime: conversation sessions', () => {
  it('starts a realtime session, and speaks a scripted response with its events in order', async () => {
    fake = await createFakeOpenaiRealtime()
    fake.replyResponse('Hi there.', { msPerChar: 10 })
    const client = await connect(fake)
    expect((await client.next('session.created')).session).toMatchObject({
      type: 'realtime',
      model: 'gpt-realtime',
    })
    client.send({ type: 'response.create', event_id: 'r1', response: { metadata: { k: 'v' } } })
    const created = await client.next('response.created')
    expect(created.response).toMatchObject({ status: 'in_progress', metadata: { k: 'v' } })
    const done = await client.next('response.done')
    expect(done.response).toMatchObject({ id: created.response.id, status: 'completed' })
    const types = client.messages.map((event) => event.type)
    expect(types.filter((type) => type.startsWith('response.output_audio_transcript.'))).toEqual([
      'response.output_audio_transcript.delta',
      'response.output_audio_transcript.delta',
      'response.output_audio_transcript.done',
    ])
    const audio = client.messages
      .filter((event) => event.type === 'response.output_audio.delta')
      .reduce((sum, event) => sum + Buffer.from(event.delta, 'base64').length, 0)
    expect(audio).toBe('Hi there.'.length * 10 * 48) // PCM16 24 kHz
    expect(fake.conversation()).toMatchObject([
      { role: 'assistant', text: 'Hi there.', source: 'speech', audioMs: 90, status: 'completed' },
    ])
    client.ws.close()
  })

  it('refuses what the API refuses: a second active response, a cancel of none, a bad truncate or placement', async () => {
    fake = await createFakeOpenaiRealtime()
    fake.replyResponseSteps(
      { type: 'transcript', delta: 'Hello' },
      { type: 'audio', ms: 200 },
      {
        type: 'stall',
      }
    )
    const client = await connect(fake)
    client.send({ type: 'response.create', event_id: 'r1' })
    const item = (await client.next('response.output_item.added')).item
    client.send({ type: 'response.create', event_id: 'r2' })
    expect((await client.next('error')).error).toMatchObject({
      code: 'conversation_already_has_active_response',
      event_id: 'r2',
    })
    client.send({
      type: 'conversation.item.truncate',
      event_id: 't1',
      item_id: item.id,
      content_index: 0,
      audio_end_ms: 500,
    })
    expect((await client.next('error')).error).toMatchObject({ event_id: 't1' })
    client.send({ type: 'response.cancel' })
    expect((await client.next('response.done')).response).toMatchObject({
      status: 'cancelled',
      status_details: { reason: 'client_cancelled' },
    })
    client.send({ type: 'response.cancel', event_id: 'c2' })
    expect((await client.next('error')).error).toMatchObject({
      code: 'response_cancel_not_active',
      event_id: 'c2',
    })
    client.send({
      type: 'conversation.item.truncate',
      item_id: item.id,
      content_index: 0,
      audio_end_ms: 50,
    })
    expect(await client.next('conversation.item.truncated')).toMatchObject({ audio_end_ms: 50 })
    client.send({
      type: 'conversation.item.create',
      event_id: 'i1',
      previous_item_id: 'nope',
      item: message('a', 'user', 'x'),
    })
    expect((await client.next('error')).error).toMatchObject({
      code: 'item_not_found',
      event_id: 'i1',
    })
    client.send({ type: 'conversation.item.delete', event_id: 'd1', item_id: 'nope' })
    expect((await client.next('error')).error).toMatchObject({ event_id: 'd1' })
    expect(fake.conversation()).toMatchObject([
      { id: item.id, truncatedAtMs: 50, audioMs: 50, status: 'incomplete' },
    ])
    client.ws.close()
  })

  it('keeps the conversation: created items in place, committed audio with its transcript, deletions', async () => {
    fake = await createFakeOpenaiRealtime()
    fake.replyTranscript('Second.')
    const client = await connect(fake)
    client.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        audio: { input: { transcription: { model: 'gpt-4o-mini-transcribe' } } },
      },
    })
    client.send({
      type: 'conversation.item.create',
      item: message('b', 'assistant', 'First answer.'),
    })
    client.send({
      type: 'conversation.item.create',
      previous_item_id: 'root',
      item: message('a', 'user', 'First.'),
    })
    client.send({
      type: 'input_audio_buffer.append',
      audio: Buffer.alloc(200 * 48, 1).toString('base64'),
    })
    client.send({ type: 'input_audio_buffer.commit' })
    const committed = await client.next('input_audio_buffer.committed')
    expect(committed.previous_item_id).toBe('b')
    await client.next('conversation.item.input_audio_transcription.completed')
    client.send({ type: 'conversation.item.delete', item_id: 'b' })
    await client.next('conversation.item.deleted')
    expect(fake.conversation().map((item) => [item.role, item.text, item.source])).toEqual([
      ['user', 'First.', 'created'],
      ['user', 'Second.', 'audio'],
    ])
    fake.replyResponse('Out of band.', { msPerChar: 5 })
    client.send({ type: 'response.create', response: { conversation: 'none' } })
    await client.next('response.done')
    expect(fake.conversation()).toHaveLength(2)
    expect(fake.responses.map((response) => response.body?.conversation)).toEqual(['none'])
    client.ws.close()
  })
})
