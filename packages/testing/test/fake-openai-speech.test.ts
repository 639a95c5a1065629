import OpenAI from 'openai'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { createFakeOpenaiSpeech, type FakeOpenaiSpeech } from '../src/index.js'

let fake: FakeOpenaiSpeech
let client: OpenAI

beforeEach(async () => {
  await fake?.close()
  fake = await createFakeOpenaiSpeech()
  client = new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 })
})
afterAll(() => fake?.close())

const speech = (input: string, body: Record<string, unknown> = {}) =>
  client.audio.speech.create({
    model: 'gpt-4o-mini-tts',
    voice: 'alloy',
    response_format: 'pcm',
    input,
    ...body,
  })

/** Reads a body chunk by chunk, with the time each chunk arrived. */
async function readTimed(response: Response) {
  const chunks: Array<{ bytes: number; at: number }> = []
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push({ bytes: chunk.length, at: performance.now() })
  }
  return chunks
}

describe('createFakeOpenaiSpeech', () => {
  it('answers a tone as long as the text, PCM16 24 kHz, and records the request', async () => {
    const response = await speech('Hello there.')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
    const audio = Buffer.from(await response.arrayBuffer())
    expect(audio.length).toBe(12 * 60 * 48) // 60 ms per character, 48 bytes per ms
    expect(audio.readInt16LE(2 * 15)).not.toBe(0)
    const [request] = fake.requests
    expect(request!.body).toEqual({
      model: 'gpt-4o-mini-tts',
      voice: 'alloy',
      response_format: 'pcm',
      input: 'Hello there.',
    })
    expect(request!.headers.authorization).toBe('Bearer sk-test')
    expect(request!.audioBytes).toBe(audio.length)
    expect(request!.aborted).toBe(false)
  })

  it('plays scripted audio after its time to first byte, paced in real time', async () => {
    const audio = Buffer.alloc(24_000) // 500 ms: five chunks of 100 ms, one every 100 ms
    fake.replyAudio({ audio, firstByteMs: 150, chunkMs: 100, chunkDelayMs: 'realtime' })
    const response = speech('Hi.')
    const [request] = await fake.waitForRequests(1)
    const receivedAt = performance.now()
    const chunks = await readTimed(await response)
    expect(chunks.reduce((sum, chunk) => sum + chunk.bytes, 0)).toBe(24_000)
    // Lower bounds at half what the script says, never a ms-tight one: a timer may fire a fraction
    // of a ms early and a busy machine delays a read, while a body sent at once takes a few ms.
    // The time to first byte counts from the request reaching the server (seen by polling, so
    // the bound only gets looser), not from the call: a first request's own cost (tens of ms)
    // must not pass for it.
    expect(chunks[0]!.at - receivedAt).toBeGreaterThanOrEqual(150 / 2)
    // Paced from the first byte the server wrote (same process, same clock): bytes cannot be read
    // before they are written, however late the client reads. The 100 ms chunk holding a read's
    // last byte leaves 100 ms × its index after the first one: the last chunk 400 ms after.
    const firstByteAt = request!.firstByteAt!
    let received = 0
    for (const chunk of chunks) {
      received += chunk.bytes
      const dueMs = Math.floor((received - 1) / (100 * 48)) * 100
      expect(chunk.at - firstByteAt, `${received} bytes`).toBeGreaterThanOrEqual(dueMs / 2)
    }
  })

  it('answers scripted HTTP errors as the SDK sees them', async () => {
    fake.replyError(429, undefined, { retryAfter: 2 })
    const error: any = await speech('Hi.').catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.RateLimitError)
    expect(error.status).toBe(429)
    expect(error.headers.get('retry-after')).toBe('2')
    expect(error.error.type).toBe('rate_limit_exceeded')
  })

  it('refuses what the real API refuses, keeping the script queued', async () => {
    fake.replyError(500)
    const unauthorized = await fetch(`${fake.baseURL}/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', voice: 'alloy', input: 'Hi.', response_format: 'pcm' }),
    })
    expect(unauthorized.status).toBe(401)
    expect(((await unauthorized.json()) as any).error.code).toBe('invalid_api_key')
    const mp3: any = await speech('Hi.', { response_format: 'mp3' }).catch((e) => e)
    expect(mp3.status).toBe(400)
    const empty: any = await speech('').catch((e) => e)
    expect(empty.status).toBe(400)
    expect(empty.error.param).toBe('input')
    expect(fake.pending).toBe(1)
  })

  it('resets or stalls mid-body after the scripted amount of audio', async () => {
    fake.replyAudio({ resetAfterMs: 100 })
    const reset = await speech('A long sentence to cut.')
    await expect(reset.arrayBuffer()).rejects.toThrow()
    expect(fake.requests[0]!.audioBytes).toBe(100 * 48)

    fake.replyAudio({ stallAfterMs: 50 })
    const stalled = await speech('Another long sentence.')
    const reader = stalled.body!.getReader()
    const first = await reader.read()
    expect(first.value!.length).toBe(50 * 48)
    const next = await Promise.race([
      reader.read(),
      new Promise((resolve) => setTimeout(() => resolve('stalled'), 150)),
    ])
    expect(next).toBe('stalled')
    await reader.cancel()
    await fake.requests[1]!.finished
    expect(fake.requests[1]!.aborted).toBe(true)
  })

  it('sees a client abort as an aborted request', async () => {
    fake.replyAudio({ chunkDelayMs: 'realtime' })
    const controller = new AbortController()
    const response = await client.audio.speech.create(
      { model: 'm', voice: 'alloy', input: 'A sentence.', response_format: 'pcm' },
      { signal: controller.signal }
    )
    const reader = response.body!.getReader()
    await reader.read()
    controller.abort()
    await fake.requests[0]!.finished
    expect(fake.requests[0]!.aborted).toBe(true)
    expect(fake.requests[0]!.endedAt).toBeUndefined()
  })

  it('never answers a stalled request, and resets a connection before any response', async () => {
    fake.enqueue({ type: 'reset' })
    await expect(speech('Hi.')).rejects.toBeInstanceOf(OpenAI.APIConnectionError)
    fake.enqueue({ type: 'stall' })
    const controller = new AbortController()
    const pending = client.audio.speech.create(
      { model: 'm', voice: 'alloy', input: 'Hi.', response_format: 'pcm' },
      { signal: controller.signal }
    )
    setTimeout(() => controller.abort(), 100)
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError)
  })
})
