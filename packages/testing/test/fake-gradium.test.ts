import { afterEach, describe, expect, it } from 'vitest'
import { createFakeGradiumSTT, createFakeGradiumTTS } from '../src/index.js'
import { connectRawClient } from './raw-client.js'

const connect = (url: string, key = 'g-test') => connectRawClient(url, { 'x-api-key': key })

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

describe('createFakeGradiumSTT', () => {
  it('answers setup with ready, and a flush with its segments then flushed with the same flush_id', async () => {
    const fake = await createFakeGradiumSTT()
    closers.push(() => fake.close())
    fake.replyTranscript('hello world')
    const client = await connect(`${fake.baseURL.replace('http', 'ws')}/api/speech/asr`)
    client.send({ type: 'setup', model_name: 'default', input_format: 'pcm_16000' })
    expect(await client.next('ready')).toMatchObject({ sample_rate: 24000, frame_size: 1920 })
    client.send({ type: 'audio', audio: Buffer.from([1, 2, 3, 4]).toString('base64') })
    client.send({ type: 'flush', flush_id: 'a' })
    expect((await client.next('text')).text).toBe('hello')
    expect((await client.next('text')).text).toBe('world')
    expect(await client.next('flushed')).toEqual({ type: 'flushed', flush_id: 'a' })
    expect(fake.flushes).toEqual([{ flushId: 'a', audio: Buffer.from([1, 2, 3, 4]) }])
    client.send({ type: 'end_of_stream' })
    await client.next('end_of_stream')
    expect(await client.closed).toBe(1000)
  })

  it('closes with an error 1008 when the first message is not a setup, or the key is wrong', async () => {
    const fake = await createFakeGradiumSTT({ apiKey: 'right' })
    closers.push(() => fake.close())
    const url = `${fake.baseURL.replace('http', 'ws')}/api/speech/asr`
    const early = await connect(url, 'right')
    early.send({ type: 'audio', audio: '' })
    expect(await early.next('error')).toMatchObject({ code: 1008 })
    expect(await early.closed).toBe(1008)
    const wrong = await connect(url, 'wrong')
    wrong.send({ type: 'setup', model_name: 'default', input_format: 'pcm' })
    expect(await wrong.next('error')).toEqual({
      type: 'error',
      message: 'Invalid API key',
      code: 1008,
    })
    expect(wrong.messages.filter((m) => m.type === 'ready')).toEqual([])
  })
})

describe('createFakeGradiumTTS', () => {
  it('multiplexes requests by client_req_id on one socket, in the requested format', async () => {
    const fake = await createFakeGradiumTTS({ msPerWord: 50 })
    closers.push(() => fake.close())
    const client = await connect(`${fake.baseURL.replace('http', 'ws')}/api/speech/tts`)
    const setup = { type: 'setup', model_name: 'default', voice_id: 'v', close_ws_on_eos: false }
    client.send({ ...setup, output_format: 'pcm_16000', client_req_id: 'a' })
    client.send({ ...setup, output_format: 'pcm', client_req_id: 'b' })
    await client.next('ready', (m) => m.client_req_id === 'a')
    await client.next('ready', (m) => m.client_req_id === 'b')
    client.send({ type: 'text', text: 'one two', client_req_id: 'a' })
    client.send({ type: 'text', text: 'three', client_req_id: 'b' })
    client.send({ type: 'end_of_stream', client_req_id: 'b' })
    client.send({ type: 'end_of_stream', client_req_id: 'a' })
    await client.next('end_of_stream', (m) => m.client_req_id === 'a')
    await client.next('end_of_stream', (m) => m.client_req_id === 'b')
    const bytes = (id: string) =>
      client.messages
        .filter((m) => m.type === 'audio' && m.client_req_id === id)
        .reduce((sum, m) => sum + Buffer.from(m.audio, 'base64').length, 0)
    expect(bytes('a')).toBe(2 * 50 * 32) // two words of 50 ms at 16 kHz
    expect(bytes('b')).toBe(50 * 96) // one word of 50 ms at 48 kHz
    expect(
      client.messages.filter((m) => m.type === 'text' && m.client_req_id === 'a')
    ).toMatchObject([
      { text: 'one', start_s: 0, stop_s: 0.05 },
      { text: 'two', start_s: 0.05, stop_s: 0.1 },
    ])
    expect(fake.requests.map((r) => [r.id, r.text, r.ended])).toEqual([
      ['a', 'one two', true],
      ['b', 'three', true],
    ])
    expect(fake.sessions[0]!.open).toBe(true)
  })

  it('closes after the end of a request that is not multiplexed, and plays scripted errors', async () => {
    const fake = await createFakeGradiumTTS()
    closers.push(() => fake.close())
    const url = `${fake.baseURL.replace('http', 'ws')}/api/speech/tts`
    const single = await connect(url)
    single.send({ type: 'setup', model_name: 'default', voice_id: 'v', output_format: 'pcm' })
    await single.next('ready')
    single.send({ type: 'text', text: 'hi' })
    single.send({ type: 'end_of_stream' })
    await single.next('end_of_stream')
    expect(await single.closed).toBe(1000)

    fake.reply({ kind: 'error', message: 'Concurrency limit exceeded', code: 1008 })
    const failing = await connect(url)
    failing.send({ type: 'setup', voice_id: 'v', output_format: 'pcm', client_req_id: 'x' })
    await failing.next('ready')
    failing.send({ type: 'text', text: 'hi', client_req_id: 'x' })
    expect(await failing.next('error')).toEqual({
      type: 'error',
      message: 'Concurrency limit exceeded',
      code: 1008,
      client_req_id: 'x',
    })
    expect(await failing.closed).toBe(1008)
  })
})
