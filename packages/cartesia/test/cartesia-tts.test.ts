import { createFakeCartesiaTTS, type FakeCartesiaTTSOptions } from '@openmic/testing'
import { PassThrough, Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { CartesiaTTS, type CartesiaTTSOptions } from '../src/index.js'
import { after, record, sleep, until } from './helpers.js'

async function setup(
  options: Partial<CartesiaTTSOptions> = {},
  fakeOptions: FakeCartesiaTTSOptions = {}
) {
  const fake = await createFakeCartesiaTTS(fakeOptions)
  after(() => fake.close())
  const tts = new CartesiaTTS({
    apiKey: 'test-key',
    voiceId: 'voice-1',
    baseURL: fake.baseURL,
    ...options,
  })
  after(() => tts.destroy())
  const recorded = record(tts, ['Audio', 'Words', 'AudioEnd', 'Failed'])
  const ends = () => recorded.events.filter((e) => e.type === 'AudioEnd' || e.type === 'Failed')
  return { fake, tts, ...recorded, ends }
}

describe('CartesiaTTS: the wire', () => {
  it('connects with the key and version in headers, never in the URL', async () => {
    const { fake } = await setup()
    await until(() => fake.connections.length === 1)
    const [connection] = fake.connections
    expect(connection!.url.pathname).toBe('/tts/websocket')
    expect(connection!.url.search).toBe('')
    expect(connection!.headers.authorization).toBe('Bearer test-key')
    expect(connection!.headers['cartesia-version']).toBe('2026-08-14')
  })

  it('sends the text of one speak() as one context, cut at word ends, then continue: false', async () => {
    const { fake, tts, ends } = await setup({
      modelId: 'sonic-2',
      language: 'fr',
      speed: 1.2,
      maxBufferDelayMs: 200,
    })
    const text = new PassThrough()
    tts.speak(text)
    for (const piece of ['Bon', 'jour à ', 'tous. Ça', ' va ?']) {
      text.write(piece)
      await sleep(5)
    }
    text.end()
    await until(() => ends().length === 1)
    expect(fake.contexts).toHaveLength(1)
    const [context] = fake.contexts
    expect(context!.requests.map((r) => [r.transcript, r.continue])).toEqual([
      ['Bonjour à ', true],
      ['tous. ', true],
      ['Ça va ', true],
      ['?', false],
    ])
    expect(context!.requests[0]).toEqual({
      model_id: 'sonic-2',
      voice: { mode: 'id', id: 'voice-1' },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
      language: 'fr',
      generation_config: { speed: 1.2 },
      max_buffer_delay_ms: 200,
      add_timestamps: true,
      transcript: 'Bonjour à ',
      context_id: context!.id,
      continue: true,
    })
  })

  it('gives each speak() its own context, and cancel() cancels that context', async () => {
    const { fake, tts, of } = await setup({}, { chunkDelayMs: 10 })
    tts.speak(Readable.from(['One two three four five six seven. ']))
    await until(() => of('Audio').length > 0)
    tts.cancel()
    tts.speak(Readable.from(['Eight nine.']))
    await until(() => of('AudioEnd').length === 1)
    const [first, second] = fake.contexts
    expect(first!.id).not.toBe(second!.id)
    expect(fake.connections[0]!.messages).toContainEqual({ context_id: first!.id, cancel: true })
    expect(first!.cancelled).toBe(true)
    expect(second!.transcript).toBe('Eight nine.')
  })

  it('says nothing, and sends nothing, for an empty text', async () => {
    const { fake, tts, events } = await setup()
    tts.speak(Readable.from(['  ']))
    await until(() => events.length > 0)
    expect(events).toEqual([{ type: 'AudioEnd', value: undefined }])
    expect(fake.contexts).toEqual([])
  })
})

describe('CartesiaTTS: audio and words', () => {
  it('emits the context audio as PCM16, its word timestamps as Words in ms, then AudioEnd', async () => {
    const { fake, tts, events, of } = await setup({}, { msPerWord: 100 })
    tts.speak(Readable.from(['Hello there. ', 'How are you?']))
    await until(() => of('AudioEnd').length === 1)
    const audio = Buffer.concat(of('Audio') as Buffer[])
    expect(audio.length).toBe(fake.contexts[0]!.audioBytes)
    expect(audio.length).toBe(5 * 100 * 32)
    expect((of('Words') as any[]).flat()).toEqual([
      { word: 'Hello', startMs: 0, endMs: 80 },
      { word: 'there.', startMs: 100, endMs: 180 },
      { word: 'How', startMs: 200, endMs: 280 },
      { word: 'are', startMs: 300, endMs: 380 },
      { word: 'you?', startMs: 400, endMs: 480 },
    ])
    expect(events.at(-1)!.type).toBe('AudioEnd')
  })

  it('asks for no timestamps when wordTimestamps is false', async () => {
    const { fake, tts, of } = await setup({ wordTimestamps: false })
    tts.speak(Readable.from(['Hello there.']))
    await until(() => of('AudioEnd').length === 1)
    expect(fake.contexts[0]!.requests.every((r) => !('add_timestamps' in r))).toBe(true)
    expect(of('Words')).toEqual([])
  })

  it('never emits audio of a cancelled context, even when the server goes on sending it', async () => {
    const { tts, events } = await setup({}, { ignoreCancel: true, chunkDelayMs: 5 })
    const text = new PassThrough()
    tts.speak(text)
    text.write('One two three four five six seven eight nine ten. ')
    await until(() => events.some((e) => e.type === 'Audio'))
    tts.cancel()
    const at = events.length
    text.end('Eleven twelve.')
    await sleep(300)
    expect(events.slice(at)).toEqual([])
  })
})

describe('CartesiaTTS: failures', () => {
  it('turns an in-band error of its context into Failed, naming the status and code', async () => {
    const { fake, tts, events } = await setup()
    fake.replyError('The model is not valid.', { status: 400, code: 'model_not_found' })
    tts.speak(Readable.from(['Hello.']))
    await until(() => events.length > 0)
    expect(events.map((e) => e.type)).toEqual(['Failed'])
    expect(String(events[0]!.value)).toBe(
      'CartesiaTTSError: CartesiaTTS: 400 model_not_found: The model is not valid.'
    )
  })

  it('fails the current speak() on an error without a context id', async () => {
    const { fake, tts, events, of } = await setup()
    fake.replyError('Quota exceeded', { status: 429, withContextId: false })
    tts.speak(Readable.from(['Hello.']))
    await until(() => events.length > 0)
    expect(String(of('Failed')[0])).toMatch(/CartesiaTTS: 429 fake_error: Quota exceeded/)
    // The connection is still good for the next one.
    tts.speak(Readable.from(['Hello again.']))
    await until(() => of('AudioEnd').length === 1)
  })

  it('ignores a late error of a cancelled context: the current speak() goes on', async () => {
    const { fake, tts, of } = await setup({}, { chunkDelayMs: 10 })
    tts.speak(Readable.from(['One two three four five six. ']))
    await until(() => of('Audio').length > 0)
    tts.cancel()
    tts.speak(Readable.from(['Seven eight.']))
    const [first] = await fake.waitForContexts(2)
    fake.connections[0]!.socket.send(
      JSON.stringify({ type: 'error', context_id: first!.id, status_code: 500, message: 'late' })
    )
    await until(() => of('AudioEnd').length === 1)
    expect(of('Failed')).toEqual([])
  })

  it('fails with the HTTP status and message of a refused connection', async () => {
    const fake = await createFakeCartesiaTTS()
    after(() => fake.close())
    fake.rejectUpgrades(401, { body: { message: 'Invalid API key' } })
    const tts = new CartesiaTTS({ apiKey: 'bad', voiceId: 'v', baseURL: fake.baseURL })
    after(() => tts.destroy())
    const { of } = record(tts, ['Failed', 'AudioEnd'])
    tts.speak(Readable.from(['Hello.']))
    await until(() => of('Failed').length === 1)
    expect((of('Failed')[0] as Error).message).toBe('CartesiaTTS: 401 Invalid API key')
  })

  it('fails a speak() whose connection closed mid-speech, and sends none of its text again', async () => {
    const { fake, tts, of } = await setup()
    fake.replyClose(1000)
    tts.speak(Readable.from(['First text.']))
    await until(() => of('Failed').length === 1)
    expect((of('Failed')[0] as Error).message).toMatch(/CartesiaTTS: connection closed \(code 1000/)
    tts.speak(Readable.from(['Second text.']))
    await until(() => of('AudioEnd').length === 1)
    expect(fake.connections).toHaveLength(2)
    expect(fake.contexts.map((c) => [c.connection, c.transcript])).toEqual([
      [0, 'First text.'],
      [1, 'Second text.'],
    ])
  })

  it('opens a new connection for the next speak() after an idle close 1000', async () => {
    const { fake, tts, of, events } = await setup()
    tts.speak(Readable.from(['One.']))
    await until(() => of('AudioEnd').length === 1)
    fake.closeConnections(1000)
    await sleep(50)
    tts.speak(Readable.from(['Two.']))
    await until(() => of('AudioEnd').length === 2)
    expect(of('Failed')).toEqual([])
    expect(fake.connections).toHaveLength(2)
    expect(fake.contexts.map((c) => c.transcript)).toEqual(['One.', 'Two.'])
    expect(events.at(-1)!.type).toBe('AudioEnd')
  })

  it('logs a malformed message and goes on', async () => {
    const { fake, tts, of, logs } = await setup()
    await until(() => fake.connections.length === 1)
    await sleep(20)
    fake.connections[0]!.socket.send('{not json')
    fake.connections[0]!.socket.send('null')
    tts.speak(Readable.from(['Hello.']))
    await until(() => of('AudioEnd').length === 1)
    expect(logs.join('\n')).toMatch(/not JSON/)
    expect(of('Failed')).toEqual([])
  })
})
