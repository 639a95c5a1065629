import { createFakeElevenLabsSTT, type FakeElevenLabsSTT } from '@openmic/testing'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ElevenLabsSTT, ElevenLabsSTTError, type ElevenLabsSTTOptions } from '../src/index.js'
import { speech, sttEvents, until, utterance, sleep } from './helpers.js'

let fake: FakeElevenLabsSTT
const instances: ElevenLabsSTT[] = []
beforeAll(async () => {
  fake = await createFakeElevenLabsSTT({ apiKey: 'xi-test' })
})
beforeEach(() => fake.reset())
afterEach(() => {
  for (const instance of instances.splice(0)) instance.destroy()
})
afterAll(() => fake.close())

function make(options: ElevenLabsSTTOptions = {}): ElevenLabsSTT {
  const stt = new ElevenLabsSTT({ apiKey: 'xi-test', baseURL: fake.baseURL, ...options })
  instances.push(stt)
  return stt
}

describe('ElevenLabsSTT', () => {
  it('streams the audio once, in whole samples, and commits at the end of the utterance', async () => {
    const stt = make({ language: 'fr', modelId: 'scribe_v2_realtime' })
    const events = sttEvents(stt)
    fake.replyTranscript('bonjour à tous', { partials: ['bonjour'] })
    const chunks = speech(300)
    // Odd sizes: a sample cut across two chunks must reach Scribe whole.
    const audio = Buffer.concat(chunks)
    const odd = [audio.subarray(0, 333), audio.subarray(333, 1001), audio.subarray(1001)]
    stt.transcribe(utterance(odd))
    await until(() => events.some(([name]) => name === 'TranscriptEnd'))

    const [session] = fake.sessions
    expect(session!.headers['xi-api-key']).toBe('xi-test')
    expect(Object.fromEntries(session!.url.searchParams)).toEqual({
      model_id: 'scribe_v2_realtime',
      audio_format: 'pcm_16000',
      commit_strategy: 'manual',
      language_code: 'fr',
    })
    const messages = session!.messages as any[]
    expect(
      messages.every((m) => m.message_type === 'input_audio_chunk' && m.sample_rate === 16000)
    ).toBe(true)
    expect(messages.slice(0, -1).every((m) => m.commit === false)).toBe(true)
    expect(messages.at(-1)).toMatchObject({ audio_base_64: '', commit: true })
    expect(session!.chunks.slice(0, -1).every((chunk) => chunk.length % 2 === 0)).toBe(true)
    expect(session!.commits).toEqual([audio])
    expect(events).toEqual([
      ['Partial', 'bonjour'],
      ['Transcript', 'bonjour à tous'],
      ['TranscriptEnd'],
    ])
  })

  it('joins the segments Scribe committed during the utterance into one Transcript', async () => {
    const stt = make()
    const events = sttEvents(stt)
    fake.replyTranscript('and the end', { partials: ['and the'] })
    const stream = utterance(speech(200), { end: false })
    stt.transcribe(stream)
    await until(() => fake.sessions[0]?.chunks.length === 10)
    // A segment the server committed on its own, before the client's commit.
    fake.sessions[0]!.send({ message_type: 'committed_transcript', text: 'the start' })
    await sleep(20)
    stream.end()
    await until(() => events.some(([name]) => name === 'TranscriptEnd'))
    expect(events).toEqual([
      ['Partial', 'the start and the'],
      ['Transcript', 'the start and the end'],
      ['TranscriptEnd'],
    ])
  })

  it.each([
    ['auth_error', 'Invalid API key'],
    ['quota_exceeded', 'Quota exceeded'],
    ['rate_limited', 'Too many requests'],
    ['input_error', 'Invalid audio'],
    ['insufficient_audio_activity', 'No speech'],
    ['unaccepted_terms', 'Accept the terms first'],
    ['invalid_request', 'Bad parameter'],
  ])('turns a %s message into Failed at once, naming it', async (messageType, error) => {
    const stt = make({ transcriptionTimeoutMs: 10_000 })
    const events = sttEvents(stt)
    fake.replyError(error, messageType)
    const started = Date.now()
    stt.transcribe(utterance(speech(100)))
    await until(() => events.length > 0)
    expect(Date.now() - started).toBeLessThan(1000)
    const [[name, failure]] = events as [[string, ElevenLabsSTTError]]
    expect(name).toBe('Failed')
    expect(failure).toBeInstanceOf(ElevenLabsSTTError)
    expect(failure.message).toBe(`ElevenLabsSTT: ${messageType}: ${error}`)
    expect(failure.code).toBe(messageType)
    await sleep(50)
    expect(events.map(([name]) => name)).toEqual(['Failed']) // no TranscriptEnd
  })

  it('fails with the HTTP status of a refused connection', async () => {
    fake.rejectUpgrades(401, {
      body: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } },
    })
    const stt = make()
    const events = sttEvents(stt)
    stt.transcribe(utterance(speech(100)))
    await until(() => events.length > 0)
    const failure = events[0]![1] as ElevenLabsSTTError
    expect(failure.message).toBe('ElevenLabsSTT: HTTP 401 invalid_api_key: Invalid API key')
    expect(failure.status).toBe(401)
  })

  it('fails an utterance whose connection closes, and sends the next one on a new connection without replaying audio', async () => {
    const stt = make()
    const events = sttEvents(stt)
    fake.reply({ type: 'close', code: 1011, reason: 'internal' })
    stt.transcribe(utterance(speech(100)))
    await until(() => events.length > 0)
    expect((events[0]![1] as ElevenLabsSTTError).closeCode).toBe(1011)
    fake.replyTranscript('second')
    const second = speech(160)
    stt.transcribe(utterance(second))
    await until(() => events.some(([name]) => name === 'TranscriptEnd'))
    expect(events.map(([name]) => name)).toEqual(['Failed', 'Transcript', 'TranscriptEnd'])
    expect(fake.sessions).toHaveLength(2)
    expect(fake.sessions[1]!.commits).toEqual([Buffer.concat(second)])
  })

  it('logs and ignores a malformed server message', async () => {
    const stt = make()
    const events = sttEvents(stt)
    fake.reply(
      { type: 'event', data: '{not json' },
      { type: 'event', data: { message_type: 'something_new' } },
      { type: 'committed', text: 'still fine' }
    )
    stt.transcribe(utterance(speech(100)))
    await until(() => events.some(([name]) => name === 'TranscriptEnd'))
    expect(events).toEqual([['Transcript', 'still fine'], ['TranscriptEnd']])
  })

  it('transcribes utterances that overlap in order, each committed after its own audio', async () => {
    const stt = make()
    const events = sttEvents(stt)
    fake.replyTranscript('one').replyTranscript('two')
    const first = utterance(speech(100), { end: false })
    stt.transcribe(first)
    const secondAudio = speech(60)
    stt.transcribe(utterance(secondAudio)) // ended before the first one
    await sleep(30)
    first.end()
    await until(() => events.filter(([name]) => name === 'TranscriptEnd').length === 2)
    expect(events).toEqual([
      ['Transcript', 'one'],
      ['TranscriptEnd'],
      ['Transcript', 'two'],
      ['TranscriptEnd'],
    ])
    expect(fake.sessions[0]!.commits).toEqual([
      Buffer.concat(speech(100)),
      Buffer.concat(secondAudio),
    ])
  })

  it('gives an empty transcript for an utterance without audio, with no commit', async () => {
    const stt = make()
    const events = sttEvents(stt)
    stt.transcribe(utterance([]))
    await until(() => events.length === 2)
    expect(events).toEqual([['Transcript', ''], ['TranscriptEnd']])
    await sleep(50)
    expect(fake.commits).toEqual([])
  })

  it('needs an API key', () => {
    const saved = process.env.ELEVENLABS_API_KEY
    delete process.env.ELEVENLABS_API_KEY
    try {
      expect(() => new ElevenLabsSTT({ baseURL: fake.baseURL })).toThrow(/ELEVENLABS_API_KEY/)
    } finally {
      if (saved !== undefined) process.env.ELEVENLABS_API_KEY = saved
    }
  })
})
