import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { GladiaSTTError } from '../src/index.js'
import { chunk, fakeGladia, say, sttOn, until } from './helpers.js'

const texts = (events: Array<{ type: string; value?: unknown }>, type: string) =>
  events.filter((e) => e.type === type).map((e) => e.value)

describe('GladiaSTT: session', () => {
  it('creates a live session with the instance: POST /v2/live with the key and the session body', async () => {
    const fake = await fakeGladia()
    sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    const [request] = fake.initRequests
    expect(request!.headers['x-gladia-key']).toBe('test-key')
    expect(request!.headers['content-type']).toBe('application/json')
    expect(session!.init).toEqual({
      encoding: 'wav/pcm',
      sample_rate: 16000,
      bit_depth: 16,
      channels: 1,
      messages_config: {
        receive_partial_transcripts: true,
        receive_final_transcripts: true,
        receive_speech_events: false,
        receive_pre_processing_events: false,
        receive_realtime_processing_events: false,
        receive_post_processing_events: false,
        receive_acknowledgments: true,
        receive_errors: true,
        receive_lifecycle_events: true,
      },
    })
    await until(() => session!.open)
  })

  it('deep-merges settings: a messages_config field changes that field only', async () => {
    const fake = await fakeGladia()
    sttOn(fake, {
      region: 'eu-west',
      settings: {
        model: 'solaria-1',
        endpointing: 0.3,
        language_config: { languages: ['fr'] },
        messages_config: { receive_partial_transcripts: false, receive_speech_events: true },
      },
    })
    const [session] = await fake.waitForSessions(1)
    expect(fake.initRequests[0]!.region).toBe('eu-west')
    expect(session!.init).toMatchObject({
      model: 'solaria-1',
      endpointing: 0.3,
      language_config: { languages: ['fr'] },
      encoding: 'wav/pcm',
      sample_rate: 16000,
    })
    expect(session!.init.messages_config).toEqual({
      receive_partial_transcripts: false,
      receive_final_transcripts: true,
      receive_speech_events: true,
      receive_pre_processing_events: false,
      receive_realtime_processing_events: false,
      receive_post_processing_events: false,
      receive_acknowledgments: true,
      receive_errors: true,
      receive_lifecycle_events: true,
    })
  })

  it('keeps what it depends on whatever the settings say (audio format, finals, acks, lifecycle)', async () => {
    const fake = await fakeGladia()
    sttOn(fake, {
      settings: {
        sample_rate: 8000,
        messages_config: { receive_final_transcripts: false, receive_lifecycle_events: false },
      },
    })
    const [session] = await fake.waitForSessions(1)
    expect(session!.init.sample_rate).toBe(16000)
    expect(session!.init.messages_config.receive_final_transcripts).toBe(true)
    expect(session!.init.messages_config.receive_lifecycle_events).toBe(true)
  })
})

describe('GladiaSTT: utterances', () => {
  it('streams the audio as binary frames, ends with stop_recording (no padding), and emits Partial, one Transcript, TranscriptEnd', async () => {
    const fake = await fakeGladia()
    fake.replyTranscript('Hello world', { partials: ['Hello', 'Hello world'] })
    const { stt, events, waitForEnds } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    await until(() => session!.open)
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.write(chunk(1))
    // The first chunk is on the wire before the utterance ends: nothing is held back.
    await until(() => session!.chunks.length === 1)
    audio.write(chunk(2))
    audio.end()
    await waitForEnds(1)
    expect(events).toEqual([
      { type: 'Partial', value: 'Hello' },
      { type: 'Partial', value: 'Hello world' },
      { type: 'Partial', value: 'Hello world' },
      { type: 'Transcript', value: 'Hello world' },
      { type: 'TranscriptEnd' },
    ])
    expect(session!.audio).toEqual(Buffer.concat([chunk(1), chunk(2)]))
    expect(session!.messages).toEqual([{ type: 'stop_recording' }])
  })

  it('joins every final utterance of one turn into ONE Transcript', async () => {
    const fake = await fakeGladia()
    fake.replyTranscript('I would like. A table for two. Tonight.', {
      finals: ['I would like.', 'A table for two.', 'Tonight.'],
      partials: [],
    })
    const { stt, events, waitForEnds } = sttOn(fake)
    say(stt, chunk(1), chunk(2))
    await waitForEnds(1)
    expect(texts(events, 'Transcript')).toEqual(['I would like. A table for two. Tonight.'])
    expect(texts(events, 'Partial')).toEqual([
      'I would like.',
      'I would like. A table for two.',
      'I would like. A table for two. Tonight.',
    ])
    expect(events.filter((e) => e.type === 'TranscriptEnd')).toHaveLength(1)
  })

  it('keeps the finals Gladia sent while the user was still speaking', async () => {
    const fake = await fakeGladia()
    fake.replyTranscript('one two', {
      finals: ['one', 'two'],
      partials: [],
      finalsBeforeStop: true,
    })
    const { stt, events, waitForEnds } = sttOn(fake)
    say(stt, chunk(1))
    await waitForEnds(1)
    expect(texts(events, 'Transcript')).toEqual(['one two'])
  })

  it('gives each utterance its own session, created ahead of time, in order', async () => {
    const fake = await fakeGladia()
    fake.replyTranscript('One.').replyTranscript('Two, three.')
    const { stt, events, waitForEnds } = sttOn(fake)
    say(stt, chunk(1), chunk(2))
    await waitForEnds(1)
    // The next session is ready before the next utterance starts.
    const [, second] = await fake.waitForSessions(2)
    await until(() => second!.open)
    say(stt, chunk(3))
    await waitForEnds(2)
    expect(texts(events, 'Transcript')).toEqual(['One.', 'Two, three.'])
    expect(fake.sessions[0]!.audio).toEqual(Buffer.concat([chunk(1), chunk(2)]))
    expect(fake.sessions[1]!.audio).toEqual(chunk(3))
    // And the one after is created as soon as the second utterance is over.
    await fake.waitForSessions(3)
  })

  it('emits the outcomes in the order of the utterances, whichever session answers first', async () => {
    const fake = await fakeGladia()
    fake.replyTranscript('first', { delayMs: 150, partials: [] })
    fake.replyTranscript('second', { partials: [] })
    const { stt, outcomes, waitForEnds } = sttOn(fake)
    say(stt, chunk(1))
    say(stt, chunk(2))
    await waitForEnds(2)
    expect(outcomes().map((e) => e.value)).toEqual(['first', 'second'])
  })

  it('answers an utterance with no audio with an empty Transcript, without a session', async () => {
    const fake = await fakeGladia()
    const { stt, events, waitForEnds } = sttOn(fake)
    await fake.waitForSessions(1)
    say(stt)
    await waitForEnds(1)
    expect(events).toEqual([{ type: 'Transcript', value: '' }, { type: 'TranscriptEnd' }])
    expect(fake.sessions[0]!.messages).toEqual([])
    expect(fake.sessions).toHaveLength(1)
  })
})

describe('GladiaSTT: failures', () => {
  it('fails an utterance at once with the status of a refused session, without retrying a 401', async () => {
    const fake = await fakeGladia({ apiKey: 'right-key' })
    const { stt, outcomes, waitForEnds } = sttOn(fake, { apiKey: 'wrong-key' })
    say(stt, chunk(1))
    await waitForEnds(1)
    const [failed] = outcomes()
    expect(failed!.type).toBe('Failed')
    expect(failed!.value).toBeInstanceOf(GladiaSTTError)
    expect((failed!.value as GladiaSTTError).status).toBe(401)
    expect(String((failed!.value as Error).message)).toBe(
      'GladiaSTT: 401 Invalid or missing API key'
    )
    // The utterance took the session being created with the instance: one request, no retry.
    expect(fake.initRequests.map((r) => r.status)).toEqual([401])
  })

  it('retries a 503 at session creation, a bounded number of times', async () => {
    const fake = await fakeGladia()
    fake.rejectSessions(503, { times: 2 })
    fake.replyTranscript('made it', { partials: [] })
    const ok = sttOn(fake, { maxRetry: 2 })
    say(ok.stt, chunk(1))
    await ok.waitForEnds(1)
    expect(ok.outcomes()).toEqual([{ type: 'Transcript', value: 'made it' }])
    // (A fourth request may follow: the session prepared for the next utterance.)
    expect(fake.initRequests.slice(0, 3).map((r) => r.status)).toEqual([503, 503, 201])

    const down = await fakeGladia()
    down.rejectSessions(503, { times: 10 })
    const failing = sttOn(down, { maxRetry: 2 })
    say(failing.stt, chunk(1))
    await failing.waitForEnds(1)
    expect(String(failing.outcomes()[0]!.value)).toContain('GladiaSTT: 503')
    // The utterance took the session being created: 1 attempt + maxRetry, then Failed.
    expect(down.initRequests.map((r) => r.status)).toEqual([503, 503, 503])
  })

  it('turns an in-band error (audio not acknowledged) into Failed at once, then transcribes the next utterance', async () => {
    const fake = await fakeGladia()
    fake.replyError('Invalid audio format').replyTranscript('fine again', { partials: [] })
    const { stt, outcomes, waitForEnds } = sttOn(fake, { transcriptionTimeoutMs: 10_000 })
    const started = Date.now()
    say(stt, chunk(1))
    await waitForEnds(1)
    expect(Date.now() - started).toBeLessThan(1000)
    expect(String(outcomes()[0]!.value)).toBe('GladiaSTTError: GladiaSTT: Invalid audio format')
    say(stt, chunk(2))
    await waitForEnds(2)
    expect(outcomes()[1]).toEqual({ type: 'Transcript', value: 'fine again' })
  })

  it('gives up a session that does not end within transcriptionTimeoutMs', async () => {
    const fake = await fakeGladia()
    fake.replyStall()
    const { stt, outcomes, waitForEnds } = sttOn(fake, { transcriptionTimeoutMs: 100 })
    say(stt, chunk(1))
    await waitForEnds(1)
    expect(String(outcomes()[0]!.value)).toContain(
      'no end of transcription 100 ms after stop_recording'
    )
  })

  it('logs a malformed message and goes on', async () => {
    const fake = await fakeGladia()
    fake.reply(
      { type: 'raw', text: '{not json' },
      { type: 'stop' },
      { type: 'final', text: 'still here' },
      { type: 'end' }
    )
    const { stt, outcomes, logs, waitForEnds } = sttOn(fake)
    say(stt, chunk(1))
    await waitForEnds(1)
    expect(outcomes()).toEqual([{ type: 'Transcript', value: 'still here' }])
    expect(logs.some((line) => line.includes('not JSON'))).toBe(true)
  })
})

describe('GladiaSTT: reconnects', () => {
  it('resumes a session whose socket dropped mid-utterance, sending only the audio Gladia did not acknowledge', async () => {
    const fake = await fakeGladia()
    fake.reply(
      { type: 'delay', ms: 30 },
      { type: 'reset' },
      { type: 'stop' },
      { type: 'final', text: 'resumed' },
      { type: 'end' }
    )
    const { stt, events, waitForEnds } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    await until(() => session!.open)
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.write(chunk(1))
    await until(() => session!.connections === 2 && session!.open)
    audio.write(chunk(2))
    audio.end()
    await waitForEnds(1)
    expect(texts(events, 'Transcript')).toEqual(['resumed'])
    expect(events.some((e) => e.type === 'Failed')).toBe(false)
    // Each byte once, in order, on the same session.
    expect(session!.audio).toEqual(Buffer.concat([chunk(1), chunk(2)]))
    expect(fake.sessions.filter((s) => s.chunks.length > 0)).toHaveLength(1)
  })

  it('sends the audio Gladia did not acknowledge again on the resumed socket, so none is lost', async () => {
    const fake = await fakeGladia({ acknowledge: false })
    fake.reply({ type: 'stop' }, { type: 'final', text: 'complete' }, { type: 'end' })
    const { stt, events, waitForEnds } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    await until(() => session!.open)
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.write(chunk(1))
    await until(() => session!.chunks.length === 1)
    session!.close(1011, 'internal error')
    await until(() => session!.connections === 2 && session!.open)
    audio.write(chunk(2))
    audio.end()
    await waitForEnds(1)
    expect(texts(events, 'Transcript')).toEqual(['complete'])
    // Chunk 1 was never acknowledged: the resumed socket carries it again, then chunk 2.
    expect(session!.chunks).toEqual([chunk(1), chunk(1), chunk(2)])
  })

  it('fails an utterance whose session was closed with 1000 before its end, and opens a new one for the next', async () => {
    const fake = await fakeGladia()
    fake.replyClose(1000).replyTranscript('next one', { partials: [] })
    const { stt, outcomes, waitForEnds } = sttOn(fake)
    say(stt, chunk(1))
    await waitForEnds(1)
    expect(String(outcomes()[0]!.value)).toContain('connection closed (code 1000)')
    say(stt, chunk(2))
    await waitForEnds(2)
    expect(outcomes()[1]).toEqual({ type: 'Transcript', value: 'next one' })
    // Each utterance's audio went to its own session, once.
    const used = fake.sessions.filter((session) => session.chunks.length > 0)
    expect(used.map((session) => session.audio)).toEqual([chunk(1), chunk(2)])
  })

  it('replaces a prepared session the provider closed while idle, without Failed', async () => {
    const fake = await fakeGladia()
    fake.replyTranscript('after idle close', { partials: [] })
    const { stt, events, waitForEnds } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    await until(() => session!.open)
    fake.closeSessions(1000)
    await session!.closed()
    say(stt, chunk(1))
    await waitForEnds(1)
    expect(texts(events, 'Transcript')).toEqual(['after idle close'])
    expect(events.some((e) => e.type === 'Failed')).toBe(false)
    expect(session!.chunks).toEqual([])
  })

  it('gives up resuming after maxRetry attempts with Failed', async () => {
    const fake = await fakeGladia()
    fake.reply({ type: 'stall' })
    const { stt, outcomes, waitForEnds } = sttOn(fake, { maxRetry: 1 })
    const [session] = await fake.waitForSessions(1)
    await until(() => session!.open)
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.write(chunk(1))
    await until(() => session!.chunks.length === 1)
    session!.close(1011)
    await until(() => session!.connections === 2 && session!.open)
    session!.close(1011)
    await waitForEnds(1)
    expect(String(outcomes()[0]!.value)).toContain('connection closed (code 1011)')
    audio.end()
  })
})
