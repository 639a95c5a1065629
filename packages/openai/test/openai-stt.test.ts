import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { FallbackSTT, Logger, MockSTT } from '@openmic/core'
import { createFakeOpenaiRealtime } from '@openmic/testing'
import { describe, expect, it, vi } from 'vitest'
import { OpenaiSTT } from '../src/index.js'
import {
  outcome,
  resampled,
  sleep,
  speech,
  transcribeOnce,
  useFakeRealtime,
  utterance,
} from './stt-helpers.js'

const context = useFakeRealtime()

describe('OpenaiSTT: the session', () => {
  it('opens the connection when created and configures a transcription session', async () => {
    const { fake } = context
    context.stt({ model: 'gpt-4o-mini-transcribe', language: 'fr', prompt: 'Names: Zoé.' })
    await fake.waitForConnections(1)
    await fake.waitFor(() => fake.sessionUpdates.length === 1)
    expect(fake.handshakes[0]!.url).toBe('/v1/realtime?intent=transcription')
    expect(fake.handshakes[0]!.headers.authorization).toBe('Bearer sk-test')
    expect(fake.sessionUpdates[0]).toEqual({
      type: 'transcription',
      audio: {
        input: {
          format: { type: 'audio/pcm', rate: 24000 },
          transcription: { model: 'gpt-4o-mini-transcribe', language: 'fr', prompt: 'Names: Zoé.' },
          turn_detection: null,
          noise_reduction: { type: 'near_field' },
        },
      },
    })
  })

  it('needs an API key: the option, or OPENAI_API_KEY', () => {
    vi.stubEnv('OPENAI_API_KEY', '')
    try {
      expect(() => new OpenaiSTT({ baseURL: context.fake.baseURL })).toThrow(
        'OpenaiSTT: no API key: pass `apiKey` or set OPENAI_API_KEY'
      )
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it("uses Micdrop's defaults: gpt-4o-transcribe, English, its prompt", async () => {
    const { fake } = context
    context.stt()
    await fake.waitFor(() => fake.sessionUpdates.length === 1)
    expect((fake.sessionUpdates[0] as any).audio.input.transcription).toEqual({
      model: 'gpt-4o-transcribe',
      language: 'en',
      prompt: 'Transcribe the incoming audio in real time.',
    })
  })

  it('fails the utterance at once when the API refuses the session (unknown model)', async () => {
    const stt = context.stt({ model: 'gpt-nope', transcriptionTimeoutMs: 5000 })
    const started = Date.now()
    const result = await transcribeOnce(stt, speech(300))
    expect(result.type).toBe('Failed')
    if (result.type !== 'Failed') return
    expect(result.error.message).toMatch(
      /^OpenaiSTT: session.update refused: Invalid value: 'gpt-nope'/
    )
    expect(result.error.code).toBe('invalid_value')
    expect(Date.now() - started).toBeLessThan(1000)
  })
})

describe('OpenaiSTT: transcribing', () => {
  it('emits the deltas as Partial (the text so far) and the final text as Transcript', async () => {
    const { fake } = context
    fake.replyTranscript('Hello world.', { partials: ['Hello', ' world', '.'] })
    const stt = context.stt()
    const result = await transcribeOnce(stt, speech(500))
    expect(result).toEqual({
      type: 'Transcript',
      text: 'Hello world.',
      partials: ['Hello', 'Hello world', 'Hello world.'],
    })
  })

  it('sends the audio resampled to 24 kHz, each byte once, then commits', async () => {
    const { fake } = context
    fake.replyTranscript('ok')
    const chunks = speech(730, 30)
    const stt = context.stt()
    await transcribeOnce(stt, chunks)
    expect(fake.commits).toHaveLength(1)
    expect(fake.commits[0]!.audio.equals(resampled(chunks))).toBe(true)
    expect(fake.receivedAudio.equals(resampled(chunks))).toBe(true)
    // session.update first, then the appends, then one commit
    const types = fake.connections[0]!.events.map((event: any) => event.type)
    expect(types[0]).toBe('session.update')
    expect(types.at(-1)).toBe('input_audio_buffer.commit')
    expect(new Set(types.slice(1, -1))).toEqual(new Set(['input_audio_buffer.append']))
  })

  it('streams audio as it arrives, before the utterance ends', async () => {
    const { fake } = context
    fake.replyTranscript('streamed')
    const stt = context.stt()
    await fake.waitForConnections(1)
    const chunks = speech(400)
    const audio = utterance(chunks.slice(0, 5), { end: false })
    const result = outcome(stt)
    stt.transcribe(audio)
    await fake.waitFor(() => fake.receivedAudio.length > 0, 2000, 'audio before the end')
    expect(fake.commits).toHaveLength(0)
    for (const chunk of chunks.slice(5)) audio.write(chunk)
    audio.end()
    expect(await result).toMatchObject({ type: 'Transcript', text: 'streamed' })
    expect(fake.commits[0]!.audio.equals(resampled(chunks))).toBe(true)
  })

  it('queues audio that comes before the connection is open and sends it once, in order', async () => {
    const { fake } = context
    fake.replyTranscript('early')
    const chunks = speech(600, 10)
    const stt = context.stt()
    // Written synchronously: the WebSocket cannot be open yet.
    const result = await transcribeOnce(stt, chunks)
    expect(result).toMatchObject({ type: 'Transcript', text: 'early' })
    expect(fake.receivedAudio.equals(resampled(chunks))).toBe(true)
  })

  it('transcribes several utterances, one after the other, on one connection', async () => {
    const { fake } = context
    fake.replyTranscript('one', { delayMs: 30 }).replyTranscript('two').replyTranscript('three')
    const stt = context.stt()
    const audios = [speech(300, 20, 300), speech(420, 20, 500), speech(250, 20, 700)]
    const texts: string[] = []
    for (const chunks of audios) {
      const result = await transcribeOnce(stt, chunks)
      if (result.type === 'Transcript') texts.push(result.text)
    }
    expect(texts).toEqual(['one', 'two', 'three'])
    expect(fake.connections).toHaveLength(1)
    expect(fake.commits.map((commit) => commit.audio)).toEqual(audios.map(resampled))
  })

  it('emits the transcripts in the order of the utterances, whatever order they come in', async () => {
    const { fake } = context
    fake.replyTranscript('first', { delayMs: 100 }).replyTranscript('second')
    const stt = context.stt()
    const texts: string[] = []
    stt.on('Transcript', (text) => texts.push(text))
    const first = speech(300, 20, 300)
    const second = speech(300, 20, 600)
    const firstAudio = utterance(first, { end: false })
    stt.transcribe(firstAudio)
    // The second utterance starts while the first still streams: it waits for its commit.
    stt.transcribe(utterance(second))
    await sleep(50)
    firstAudio.end()
    await fake.waitFor(() => texts.length === 2)
    expect(texts).toEqual(['first', 'second'])
    expect(fake.commits.map((commit) => commit.audio)).toEqual([
      resampled(first),
      resampled(second),
    ])
  })

  it('gives an empty transcript at once, with no commit, for an utterance without audio', async () => {
    const { fake } = context
    const stt = context.stt()
    await fake.waitForConnections(1)
    const result = await transcribeOnce(stt, [])
    expect(result).toEqual({ type: 'Transcript', text: '', partials: [] })
    await sleep(50)
    expect(fake.commits).toHaveLength(0)
  })

  it('gives an empty transcript for less than the 100 ms the API accepts, and clears it', async () => {
    const { fake } = context
    fake.replyTranscript('after')
    const stt = context.stt()
    const result = await transcribeOnce(stt, speech(60))
    expect(result).toMatchObject({ type: 'Transcript', text: '' })
    await fake.waitFor(() =>
      fake.connections[0]?.events.some((event: any) => event.type === 'input_audio_buffer.clear')
    )
    // The short audio is not committed with the next utterance.
    const next = speech(300)
    expect(await transcribeOnce(stt, next)).toMatchObject({ type: 'Transcript', text: 'after' })
    expect(fake.commits[0]!.audio.equals(resampled(next))).toBe(true)
  })

  it('logs and ignores a malformed server message', async () => {
    const { fake } = context
    fake.replySteps(
      { type: 'event', data: 'not json {' },
      { type: 'event', data: { no: 'type' } },
      { type: 'completed', transcript: 'still fine' }
    )
    const stt = context.stt()
    const lines: string[] = []
    stt.logger = new Logger('STT', (_prefix, ...message) => lines.push(message.join(' ')))
    expect(await transcribeOnce(stt, speech(300))).toMatchObject({
      type: 'Transcript',
      text: 'still fine',
    })
    expect(lines).toContain('Ignored a server message that is not JSON: not json {')
    expect(lines).toContain('Ignored a server message that is not an event: {"no":"type"}')
  })
})

describe('OpenaiSTT: failures', () => {
  it('fails at once on an in-band error, and the next utterance works', async () => {
    const { fake } = context
    fake.replyError('The server had an error.', { code: 'server_error', errorType: 'server_error' })
    fake.replyTranscript('recovered')
    const stt = context.stt({ transcriptionTimeoutMs: 5000 })
    const started = Date.now()
    const result = await transcribeOnce(stt, speech(300))
    expect(Date.now() - started).toBeLessThan(1000)
    expect(result.type).toBe('Failed')
    if (result.type !== 'Failed') return
    expect(result.error.message).toBe('OpenaiSTT: The server had an error.')
    expect(result.error.code).toBe('server_error')
    expect(await transcribeOnce(stt, speech(300))).toMatchObject({ text: 'recovered' })
    expect(fake.connections).toHaveLength(1)
  })

  it('fails when the transcription fails', async () => {
    const { fake } = context
    fake.replySteps({ type: 'failed', message: 'Audio unreadable.', code: 'audio_unreadable' })
    const stt = context.stt()
    const result = await transcribeOnce(stt, speech(300))
    expect(result.type).toBe('Failed')
    if (result.type !== 'Failed') return
    expect(result.error.message).toBe('OpenaiSTT: transcription failed: Audio unreadable.')
    expect(result.error.code).toBe('audio_unreadable')
  })

  it('fails when the audio stream breaks, and drops the audio it had sent', async () => {
    const { fake } = context
    fake.replyTranscript('clean')
    const stt = context.stt()
    const audio = utterance(speech(300), { end: false })
    const result = outcome(stt)
    stt.transcribe(audio)
    await fake.waitFor(() => fake.receivedAudio.length > 0)
    audio.destroy(new Error('client gone'))
    const failed = await result
    expect(failed.type).toBe('Failed')
    if (failed.type === 'Failed') {
      expect(failed.error.message).toBe('OpenaiSTT: the audio stream failed: client gone')
    }
    const next = speech(300, 20, 900)
    expect(await transcribeOnce(stt, next)).toMatchObject({ text: 'clean' })
    expect(fake.commits[0]!.audio.equals(resampled(next))).toBe(true)
  })

  it('fails with the HTTP status when the key is wrong', async () => {
    const { fake } = context
    const stt = context.stt({ apiKey: 'sk-wrong' })
    const result = await transcribeOnce(stt, speech(300))
    expect(result.type).toBe('Failed')
    if (result.type !== 'Failed') return
    expect(result.error.message).toMatch(/^OpenaiSTT: HTTP 401 Incorrect API key provided/)
    expect(result.error.status).toBe(401)
    expect(result.error.code).toBe('invalid_api_key')
    expect(fake.connections).toHaveLength(0)
  })

  it('lets FallbackSTT switch at once when the key is wrong', async () => {
    const fallback = new FallbackSTT({
      factories: [
        () => context.stt({ apiKey: 'sk-wrong' }),
        () => new MockSTT({ utterances: ['backup'] }),
      ],
    })
    try {
      const started = Date.now()
      expect(await transcribeOnce(fallback, speech(300))).toMatchObject({ text: 'backup' })
      expect(Date.now() - started).toBeLessThan(1000)
    } finally {
      fallback.destroy()
    }
  })

  it('reconnects for the utterance when the warm connection was refused', async () => {
    const { fake } = context
    fake.rejectConnection(503).replyTranscript('second try')
    const stt = context.stt()
    const lines: string[] = []
    stt.logger = new Logger('STT', (_prefix, ...message) => lines.push(message.join(' ')))
    await fake.waitFor(() => lines.some((line) => line.startsWith('OpenaiSTT: HTTP 503')))
    expect(await transcribeOnce(stt, speech(300))).toMatchObject({ text: 'second try' })
    expect(fake.handshakes.map((handshake) => handshake.status)).toEqual([503, 101])
  })

  it('fails an utterance with no transcript within transcriptionTimeoutMs, and ignores its late text', async () => {
    const { fake } = context
    fake.replySteps(
      { type: 'delta', delta: 'la' },
      { type: 'delay', ms: 900 },
      { type: 'completed', transcript: 'late' }
    )
    fake.replyTranscript('next', { delayMs: 450 })
    const stt = context.stt({ transcriptionTimeoutMs: 600 })
    const started = Date.now()
    const result = await transcribeOnce(stt, speech(300))
    expect(result).toMatchObject({ type: 'Failed', partials: ['la'] })
    if (result.type !== 'Failed') return
    expect(result.error.message).toBe(
      'OpenaiSTT: no transcript within 600 ms of the end of the utterance'
    )
    // Half the timeout, never a ms-tight bound (a timer may fire a fraction of a ms early): an STT
    // failing at once, not after its timeout, still fails it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(600 / 2)
    // 'late' comes while the second utterance waits: it is the first one's, not this one's.
    expect(await transcribeOnce(stt, speech(300))).toMatchObject({
      type: 'Transcript',
      text: 'next',
      partials: [],
    })
  })

  it('fails an utterance whose connection does not open within connectionTimeoutMs', async () => {
    const sockets = new Set<Socket>()
    const silent: Server = createServer((socket) => sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    const stt = new OpenaiSTT({
      apiKey: 'sk-test',
      baseURL: `http://127.0.0.1:${port}/v1`,
      connectionTimeoutMs: 100,
    })
    try {
      const result = outcome(stt)
      stt.transcribe(utterance(speech(300)))
      const failed = await result
      expect(failed.type).toBe('Failed')
      if (failed.type === 'Failed') {
        expect(failed.error.message).toBe('OpenaiSTT: could not connect within 100 ms')
      }
    } finally {
      stt.destroy()
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })
})

describe('OpenaiSTT: connections that end', () => {
  it('reconnects for the next utterance after a close 1000, sending no audio twice', async () => {
    const { fake } = context
    fake.replySteps({ type: 'completed', transcript: 'one' }, { type: 'close', code: 1000 })
    fake.replyTranscript('two')
    const stt = context.stt()
    const first = speech(300, 20, 300)
    const second = speech(400, 20, 600)
    expect(await transcribeOnce(stt, first)).toMatchObject({ text: 'one' })
    await fake.waitFor(() => fake.connections[0]?.closed === true)
    expect(await transcribeOnce(stt, second)).toMatchObject({ text: 'two' })
    expect(fake.connections).toHaveLength(2)
    expect(fake.commits.map((commit) => commit.connection)).toEqual([0, 1])
    expect(fake.receivedAudio.equals(Buffer.concat([resampled(first), resampled(second)]))).toBe(
      true
    )
  })

  it('fails an utterance whose connection is reset while it waits for its transcript', async () => {
    const { fake } = context
    fake.replySteps({ type: 'reset' })
    fake.replyTranscript('after reset')
    const stt = context.stt({ transcriptionTimeoutMs: 5000 })
    const started = Date.now()
    const result = await transcribeOnce(stt, speech(300))
    expect(result.type).toBe('Failed')
    expect(Date.now() - started).toBeLessThan(1000)
    if (result.type === 'Failed') expect(result.error.message).toMatch(/^OpenaiSTT: connection/)
    const next = speech(300, 20, 800)
    expect(await transcribeOnce(stt, next)).toMatchObject({ text: 'after reset' })
    expect(fake.commits[1]!.audio.equals(resampled(next))).toBe(true)
  })

  it('fails an utterance whose connection closes while it streams; its audio is never resent', async () => {
    const { fake } = context
    fake.replyTranscript('fresh')
    const stt = context.stt()
    await fake.waitForConnections(1)
    const chunks = speech(400)
    const audio = utterance(chunks.slice(0, 6), { end: false })
    const result = outcome(stt)
    stt.transcribe(audio)
    await fake.waitFor(() => fake.receivedAudio.length > 0)
    const sentBefore = fake.receivedAudio.length
    fake.closeConnections(1000, 'idle')
    const failed = await result
    expect(failed.type).toBe('Failed')
    if (failed.type === 'Failed') {
      expect(failed.error.message).toBe('OpenaiSTT: connection closed (code 1000: idle)')
      expect(failed.error.closeCode).toBe(1000)
    }
    // The rest of the failed utterance goes nowhere.
    for (const chunk of chunks.slice(6)) audio.write(chunk)
    audio.end()
    const next = speech(300, 20, 900)
    expect(await transcribeOnce(stt, next)).toMatchObject({ text: 'fresh' })
    expect(fake.commits).toHaveLength(1)
    expect(fake.commits[0]!.audio.equals(resampled(next))).toBe(true)
    expect(fake.receivedAudio.length).toBe(sentBefore + resampled(next).length)
  })
})

describe('OpenaiSTT: destroy()', () => {
  it('closes the connection, and nothing is emitted afterwards', async () => {
    const { fake } = context
    fake.replyTranscript('too late', { delayMs: 100 })
    const stt = context.stt({ transcriptionTimeoutMs: 50 })
    const events: string[] = []
    for (const name of ['Partial', 'Transcript', 'Failed'] as const) {
      stt.on(name, () => events.push(name))
    }
    const audio = utterance(speech(300))
    stt.transcribe(audio)
    await fake.waitForCommits(1)
    stt.destroy()
    await fake.waitFor(() => fake.connections[0]!.closed, 2000, 'close')
    await sleep(200)
    expect(events).toEqual([])
  })

  it('lets the process exit: no timer or socket is left', async () => {
    const fake = await createFakeOpenaiRealtime()
    fake.replySteps({ type: 'delta', delta: 'never completed' })
    const stt = new OpenaiSTT({
      apiKey: 'k',
      baseURL: fake.baseURL,
      transcriptionTimeoutMs: 60_000,
    })
    stt.transcribe(utterance(speech(300)))
    await fake.waitForCommits(1)
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    stt.destroy()
    await fake.waitFor(() => fake.connections[0]?.closed === true)
    const after = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    expect(after).toBeLessThan(before)
    await fake.close()
  })
})
