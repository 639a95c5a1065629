import { createServer, type Socket } from 'node:net'
import { PassThrough } from 'node:stream'
import { createFakeElevenLabsTTS, type FakeElevenLabsTTS } from '@openmic/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { ElevenLabsTTS, ElevenLabsTTSError, type ElevenLabsTTSOptions } from '../src/index.js'
import { sleep, text, ttsLog, until } from './helpers.js'

const instances: ElevenLabsTTS[] = []
const fakes: FakeElevenLabsTTS[] = []
afterEach(async () => {
  for (const instance of instances.splice(0)) instance.destroy()
  for (const fake of fakes.splice(0)) await fake.close()
})

async function setup(
  options: Partial<ElevenLabsTTSOptions> = {},
  fakeOptions: Parameters<typeof createFakeElevenLabsTTS>[0] = {}
) {
  const fake = await createFakeElevenLabsTTS({ apiKey: 'xi-test', ...fakeOptions })
  fakes.push(fake)
  const tts = new ElevenLabsTTS({
    apiKey: 'xi-test',
    voiceId: 'voice-1',
    baseURL: fake.baseURL,
    ...options,
  })
  instances.push(tts)
  return { fake, tts, log: ttsLog(tts) }
}

describe('ElevenLabsTTS', () => {
  it('opens one context per speak(), sends the text as it streams in, flushes each sentence, and closes it at the end', async () => {
    const { fake, tts, log } = await setup({
      modelId: 'eleven_flash_v2_5',
      language: 'fr',
      voiceSettings: { stability: 0.5, similarity_boost: 0.8 },
    })
    // Opened at creation, before any speak().
    await until(() => fake.connections.length === 1, 3000, 'a connection')
    const connection = fake.connections[0]!
    expect(connection.headers['xi-api-key']).toBe('xi-test')
    expect(connection.url.pathname).toBe('/v1/text-to-speech/voice-1/multi-stream-input')
    expect(Object.fromEntries(connection.url.searchParams)).toEqual({
      model_id: 'eleven_flash_v2_5',
      output_format: 'pcm_16000',
      language_code: 'fr',
      inactivity_timeout: '180',
    })

    const stream = new PassThrough()
    tts.speak(stream)
    stream.write('Hello  there.\nHow ')
    stream.write('are yo')
    await until(() => fake.contexts[0]?.texts.length === 3, 3000, 'the first words')
    // Whole words are sent before the text ends, a finished sentence flushed; a word that may go
    // on waits.
    expect(fake.contexts[0]!.texts).toEqual(['Hello there. ', 'How ', 'are '])
    expect(fake.contexts[0]!.flushes).toBe(1)
    stream.end('u?')
    await until(() => log.ends === 1, 3000, 'AudioEnd')

    const [context] = fake.contexts
    expect(context!.init).toEqual({
      text: ' ',
      context_id: context!.id,
      voice_settings: { stability: 0.5, similarity_boost: 0.8 },
    })
    expect(context!.texts).toEqual(['Hello there. ', 'How ', 'are ', 'you? '])
    const messages = connection.messages as any[]
    expect(messages[1]).toEqual({ text: 'Hello there. ', context_id: context!.id, flush: true })
    expect(messages.slice(-2)).toEqual([
      { text: 'you? ', context_id: context!.id, flush: true },
      { context_id: context!.id, close_context: true },
    ])
    expect(Buffer.concat(log.audio).length).toBe(context!.audioBytes)
    expect(log.order.at(-1)).toBe('AudioEnd')
    expect(log.failures).toEqual([])
  })

  it('cancel() closes the context (no flush), and the API stops generating it', async () => {
    const { fake, tts, log } = await setup()
    fake.replySpeech({ chunkDelayMs: 10, generateAtChars: 10 })
    const stream = new PassThrough()
    tts.speak(stream)
    stream.write('This sentence is long enough to be generated before its end and ')
    await until(() => log.audio.length > 0, 3000, 'first audio')
    tts.cancel()
    await until(() => fake.contexts[0]?.final === true, 3000, 'the context closed')
    const context = fake.contexts[0]!
    const messages = (fake.connections[0]!.messages as any[]).filter(
      (m) => m.context_id === context.id
    )
    expect(messages.at(-1)).toEqual({ context_id: context.id, close_context: true })
    expect(messages.some((m) => m.flush === true)).toBe(false)
    expect(context.audioAfterClose).toBe(0)
    stream.end('More text that must not be sent.')
    await sleep(100)
    expect(context.texts.join('')).not.toContain('More')
    expect(log.ends).toBe(0)
  })

  it('emits nothing of a cancelled context, whatever still arrives for it', async () => {
    const { fake, tts, log } = await setup({}, { ignoreCloseContext: true })
    fake.replySpeech({ chunkDelayMs: 5, generateAtChars: 10, charsPerMessage: 4 })
    tts.speak(text('One two three four five six seven eight nine ten eleven twelve.'))
    await until(() => log.audio.length > 0, 3000, 'first audio')
    tts.cancel()
    const cancelledAt = log.order.length
    const audioBefore = log.audio.length
    // The next answer starts at once; the cancelled one's audio goes on arriving meanwhile.
    fake.replySpeech({ firstAudioDelayMs: 100 })
    tts.speak(text('Next.'))
    const [cancelled] = fake.contexts
    await until(() => log.ends === 1 && cancelled!.final, 5000, 'both contexts to finish')
    expect(cancelled!.audioAfterClose).toBeGreaterThan(0)
    const next = fake.contexts[1]!
    // Every byte emitted since the cancel is the next answer's.
    expect(Buffer.concat(log.audio.slice(audioBefore)).length).toBe(next.audioBytes)
    expect(log.words.at(-1)).toMatchObject({ word: 'Next.', startMs: 0 })
    expect(log.order.slice(cancelledAt).filter((e) => e === 'AudioEnd')).toHaveLength(1)
    expect(next.texts).toEqual(['Next. '])
  })

  it('keeps an idle context alive while its text waits', async () => {
    const { fake, tts, log } = await setup({ keepAliveIntervalMs: 40 })
    const stream = new PassThrough()
    tts.speak(stream)
    stream.write('Let me check. ')
    // A tool runs: no text. Keep-alives come one after another (the default interval, 15 s, would
    // time this out), counted as they come rather than within a fixed 200 ms.
    await until(() => (fake.contexts[0]?.keepAlives ?? 0) >= 3, 3000, 'three keep-alives')
    const keepAlive = (fake.connections[0]!.messages as any[]).find((m) => m.text === '')
    expect(keepAlive).toEqual({ text: '', context_id: fake.contexts[0]!.id })
    stream.end('Done.')
    await until(() => log.ends === 1)
    const after = fake.contexts[0]!.keepAlives
    await sleep(150)
    expect(fake.contexts[0]!.keepAlives).toBe(after) // none once the text ended
  })

  it("turns the character alignment into Words timed from the start of the speak()'s audio", async () => {
    const { fake, tts, log } = await setup()
    fake.replySpeech({ msPerChar: 10, charsPerMessage: 4 })
    tts.speak(text('Hello world again.'))
    await until(() => log.ends === 1)
    // 4 characters a message: "Hell", "o wo", "rld ", "agai", "n. ".
    expect(log.words).toEqual([
      { word: 'Hello', startMs: 0, endMs: 50 },
      { word: 'world', startMs: 60, endMs: 110 },
      { word: 'again.', startMs: 120, endMs: 180 },
    ])
    expect(log.order.at(-1)).toBe('AudioEnd')
    // The next speak() counts from its own start again.
    fake.replySpeech({ msPerChar: 10, charsPerMessage: 4 })
    log.words.length = 0
    tts.speak(text('Bye now.'))
    await until(() => log.ends === 2)
    expect(log.words[0]).toEqual({ word: 'Bye', startMs: 0, endMs: 30 })
  })

  it('resamples another PCM rate to 16 kHz', async () => {
    const { fake, tts, log } = await setup({ outputFormat: 'pcm_24000' })
    fake.replySpeech({ msPerChar: 10 })
    tts.speak(text('Twenty chars of text'))
    await until(() => log.ends === 1)
    expect(fake.connections[0]!.url.searchParams.get('output_format')).toBe('pcm_24000')
    // 20 characters then the flushed blank: 210 ms, at 16 kHz.
    expect(Buffer.concat(log.audio).length).toBe(210 * 32)
    expect(log.audio.every((chunk) => chunk.length % 2 === 0)).toBe(true)
  })

  it('reconnects for the next speak() after the API closed the connection, without sending text twice', async () => {
    const { fake, tts, log } = await setup()
    tts.speak(text('First answer.'))
    await until(() => log.ends === 1)
    fake.closeConnections(1000)
    await until(() => fake.connections[0]!.closed)
    await sleep(20)
    tts.speak(text('Second answer.'))
    await until(() => log.ends === 2)
    expect(fake.connections).toHaveLength(2)
    expect([...fake.connections[1]!.contexts.values()].map((c) => c.text)).toEqual([
      'Second answer. ',
    ])
    expect(fake.connections[0]!.contexts.size).toBe(1)
    expect(log.failures).toEqual([])
  })

  it('fails a speak() whose connection closes mid-speech, and speaks the next one on a new connection', async () => {
    const { fake, tts, log } = await setup()
    fake.replyStall()
    const stream = new PassThrough()
    tts.speak(stream)
    stream.write('Hello there. ')
    await until(() => fake.contexts.length === 1)
    fake.closeConnections(1011, 'restart')
    await until(() => log.failures.length === 1)
    const failure = log.failures[0] as ElevenLabsTTSError
    expect(failure.message).toBe('ElevenLabsTTS: connection closed (code 1011: restart)')
    expect(failure.closeCode).toBe(1011)
    stream.end('Never sent.')
    tts.speak(text('Again.'))
    await until(() => log.ends === 1)
    expect(fake.contexts.map((c) => c.text)).toEqual(['Hello there. ', 'Again. '])
  })

  it('fails at once on an error message, naming the error and its code', async () => {
    const { fake, tts, log } = await setup({ stallTimeoutMs: 10_000 })
    fake.replyError('A voice with this id was not found.', { error: 'voice_not_found', code: 1008 })
    const started = Date.now()
    tts.speak(text('Hello.'))
    await until(() => log.failures.length === 1)
    expect(Date.now() - started).toBeLessThan(1000)
    const failure = log.failures[0] as ElevenLabsTTSError
    expect(failure.message).toBe(
      'ElevenLabsTTS: voice_not_found: A voice with this id was not found. (code 1008)'
    )
    expect(failure.code).toBe('voice_not_found')
    await sleep(50)
    expect(log.ends).toBe(0)
  })

  it('fails with the HTTP status of a refused connection', async () => {
    const fake = await createFakeElevenLabsTTS({ apiKey: 'xi-other' })
    fakes.push(fake)
    const tts = new ElevenLabsTTS({ apiKey: 'xi-test', voiceId: 'v', baseURL: fake.baseURL })
    instances.push(tts)
    const log = ttsLog(tts)
    tts.speak(text('Hello.'))
    await until(() => log.failures.length === 1)
    const failure = log.failures[0] as ElevenLabsTTSError
    expect(failure.message).toBe('ElevenLabsTTS: HTTP 401 invalid_api_key: Invalid API key')
    expect(failure.status).toBe(401)
  })

  it('closes each context it is done with: many barge-ins stay under the API limit of 5 contexts', async () => {
    const { fake, tts, log } = await setup()
    for (let i = 0; i < 8; i++) {
      fake.replySpeech({ chunkDelayMs: 5, generateAtChars: 5 })
      const stream = new PassThrough()
      tts.speak(stream)
      stream.write(`Answer number ${i} is being spoken. `)
      await until(() => log.audio.length > i, 3000, `audio of answer ${i}`)
      tts.cancel()
      stream.end()
      await until(() => fake.contexts[i]?.final === true, 3000, `context ${i} closed`)
    }
    tts.speak(text('Last one.'))
    await until(() => log.ends === 1)
    expect(fake.connections).toHaveLength(1)
    expect(log.failures).toEqual([])
  })

  it('ends a speak() with no text at once, asking nothing of the API', async () => {
    const { fake, tts, log } = await setup()
    tts.speak(text('  \n'))
    await until(() => log.ends === 1)
    expect(log.audio).toEqual([])
    await until(() => fake.contexts.length === 1)
    expect(fake.contexts[0]!.texts).toEqual([])
  })

  it('fails a speak() whose connection does not open within connectionTimeoutMs', async () => {
    // A server that accepts the TCP connection and never answers the upgrade.
    const sockets: Socket[] = []
    const silent = createServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    try {
      const tts = new ElevenLabsTTS({
        apiKey: 'xi-test',
        voiceId: 'v',
        baseURL: `http://127.0.0.1:${port}`,
        connectionTimeoutMs: 150,
      })
      instances.push(tts)
      const log = ttsLog(tts)
      tts.speak(text('Hello.'))
      await until(() => log.failures.length === 1)
      expect(String(log.failures[0])).toContain('ElevenLabsTTS: could not connect within 150 ms')
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })

  it('fails a speak() whose text stream errors, and closes its context', async () => {
    const { fake, tts, log } = await setup()
    fake.replyStall()
    const stream = new PassThrough()
    tts.speak(stream)
    stream.write('Hello ')
    await until(() => fake.contexts[0]?.texts.length === 1)
    stream.destroy(new Error('model stream broke'))
    await until(() => log.failures.length === 1)
    expect(String(log.failures[0])).toBe(
      'ElevenLabsTTSError: ElevenLabsTTS: the text stream failed: model stream broke'
    )
    await until(() => fake.contexts[0]!.closed)
  })
})
