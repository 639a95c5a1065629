import { describe, expect, it } from 'vitest'
import { chunk, fakeRealtime, say, sttOn, until, utterance } from './stt-helpers.js'

const types = (messages: unknown[]) =>
  messages.map((m) => (typeof m === 'object' && m ? (m as { type: string }).type : m))

describe('MistralSTT: session', () => {
  it('opens the WebSocket at creation, waits for session.created, then sends session.update', async () => {
    const fake = await fakeRealtime({ sessionCreatedDelayMs: 60 })
    sttOn(fake, { targetStreamingDelayMs: 480 })
    const [session] = await fake.waitForSessions(1)
    expect(session!.headers.authorization).toBe('Bearer test-key')
    expect(session!.url.pathname).toBe('/v1/audio/transcriptions/realtime')
    expect(session!.model).toBe('voxtral-mini-transcribe-realtime-2602')
    await until(() => session!.messages.length === 1)
    expect(session!.messagesBeforeCreated).toEqual([])
    expect(session!.sessionUpdates).toEqual([
      {
        type: 'session.update',
        session: {
          audio_format: { encoding: 'pcm_s16le', sample_rate: 16000 },
          target_streaming_delay_ms: 480,
        },
      },
    ])
  })

  it('sends the model and encoding it is given', async () => {
    const fake = await fakeRealtime()
    sttOn(fake, { model: 'voxtral-mini-transcribe-realtime-latest', encoding: 'pcm_f32le' })
    const [session] = await fake.waitForSessions(1)
    await until(() => session!.sessionUpdates.length === 1)
    expect(session!.model).toBe('voxtral-mini-transcribe-realtime-latest')
    expect(session!.sessionUpdates[0]!.session).toEqual({
      audio_format: { encoding: 'pcm_f32le', sample_rate: 16000 },
    })
  })
})

describe('MistralSTT: utterances', () => {
  it('streams audio as it arrives, flushes at the end, and emits Partial then Transcript', async () => {
    const fake = await fakeRealtime()
    fake.replyTranscript('Hello world', { deltas: ['Hello', ' world'] })
    const { stt, events, waitForEnds } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    const audio = utterance()
    stt.transcribe(audio)
    audio.write(chunk(1))
    // The first chunk is on the wire before the utterance ends: nothing is held back.
    await until(() => session!.appends.length === 1)
    audio.write(chunk(2))
    audio.end()
    await waitForEnds(1)
    expect(events).toEqual([
      { type: 'Partial', value: 'Hello' },
      { type: 'Partial', value: 'Hello world' },
      { type: 'Transcript', value: 'Hello world' },
    ])
    expect(session!.flushes).toEqual([Buffer.concat([chunk(1), chunk(2)])])
    expect(types(session!.messages)).toEqual([
      'session.update',
      'input_audio.append',
      'input_audio.append',
      'input_audio.flush',
    ])
    expect(session!.ended).toBe(false)
  })

  it('transcribes several utterances on one session, each with its own text', async () => {
    const fake = await fakeRealtime()
    fake.replyTranscript('One.').replyTranscript('Two, three.')
    const { stt, events, waitForEnds } = sttOn(fake)
    say(stt, chunk(1), chunk(2))
    await waitForEnds(1)
    say(stt, chunk(3))
    await waitForEnds(2)
    expect(events.filter((e) => e.type === 'Transcript').map((e) => e.value)).toEqual([
      'One.',
      'Two, three.',
    ])
    // Partials are per utterance: the second starts from its own first word.
    expect(events.filter((e) => e.type === 'Partial').map((e) => e.value)).toEqual([
      'One.',
      'Two, ',
      'Two, three.',
    ])
    expect(fake.sessions).toHaveLength(1)
    expect(fake.flushes).toEqual([Buffer.concat([chunk(1), chunk(2)]), chunk(3)])
  })

  it('matches each transcript to its utterance when the next one starts before it came', async () => {
    const fake = await fakeRealtime()
    fake
      .replyTranscript('First answer', { delayMs: 80, deltas: ['First', ' answer'] })
      .replyTranscript('Second answer', { deltas: ['Second', ' answer'] })
    const { stt, events, waitForEnds } = sttOn(fake)
    say(stt, chunk(1))
    await fake.waitForFlushes(1)
    say(stt, chunk(2))
    await waitForEnds(2)
    expect(events).toEqual([
      { type: 'Partial', value: 'First' },
      { type: 'Partial', value: 'First answer' },
      { type: 'Transcript', value: 'First answer' },
      { type: 'Partial', value: 'Second' },
      { type: 'Partial', value: 'Second answer' },
      { type: 'Transcript', value: 'Second answer' },
    ])
    expect(fake.flushes).toEqual([chunk(1), chunk(2)])
  })

  it("holds an overlapping utterance's audio until the one before it ended", async () => {
    const fake = await fakeRealtime()
    fake.replyTranscript('One').replyTranscript('Two')
    const { stt, waitForEnds, ends } = sttOn(fake)
    await fake.waitForSessions(1)
    const first = utterance()
    stt.transcribe(first)
    first.write(chunk(1))
    const second = utterance()
    stt.transcribe(second)
    second.write(chunk(2))
    second.end()
    first.write(chunk(3))
    first.end()
    await waitForEnds(2)
    expect(ends().map((e) => e.value)).toEqual(['One', 'Two'])
    expect(fake.flushes).toEqual([Buffer.concat([chunk(1), chunk(3)]), chunk(2)])
  })

  it('sends audio that arrives while the session opens once, in order, once it is ready', async () => {
    const fake = await fakeRealtime({ sessionCreatedDelayMs: 80 })
    fake.replyTranscript('Early words')
    const { stt, waitForEnds, ends } = sttOn(fake)
    say(stt, chunk(1), chunk(2), chunk(3))
    await waitForEnds(1)
    expect(ends()).toEqual([{ type: 'Transcript', value: 'Early words' }])
    const session = fake.sessions[0]!
    expect(session.messagesBeforeCreated).toEqual([])
    expect(session.appends).toEqual([chunk(1), chunk(2), chunk(3)])
  })

  it('answers an utterance without audio with an empty Transcript and sends nothing', async () => {
    const fake = await fakeRealtime()
    const { stt, waitForEnds, ends } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    say(stt)
    await waitForEnds(1)
    expect(ends()).toEqual([{ type: 'Transcript', value: '' }])
    expect(types(session!.messages).filter((t) => t !== 'session.update')).toEqual([])
  })
})

describe('MistralSTT: failures', () => {
  it('fails at once on an in-band error, naming MistralSTT, then recovers on a new session', async () => {
    const fake = await fakeRealtime()
    fake.replyError('Audio is too short', { code: 3001 }).replyTranscript('After the error')
    const { stt, waitForEnds, ends } = sttOn(fake, { transcriptionTimeoutMs: 5000 })
    const start = performance.now()
    say(stt, chunk(1))
    await waitForEnds(1)
    expect(performance.now() - start).toBeLessThan(1000)
    const failed = ends()[0]!
    expect(failed.type).toBe('Failed')
    expect((failed.value as Error).message).toBe('MistralSTT: Audio is too short')
    expect((failed.value as { code: string }).code).toBe('3001')
    say(stt, chunk(2))
    await waitForEnds(2)
    expect(ends()[1]).toEqual({ type: 'Transcript', value: 'After the error' })
    expect(fake.flushes).toEqual([chunk(1), chunk(2)])
  })

  it('opens a new session for the next utterance after the server closed with 1000', async () => {
    const fake = await fakeRealtime()
    fake.replyTranscript('First').replyTranscript('Second')
    const { stt, waitForEnds, ends } = sttOn(fake)
    say(stt, chunk(1))
    await waitForEnds(1)
    fake.closeSessions(1000)
    await fake.sessions[0]!.closed
    say(stt, chunk(2))
    await waitForEnds(2)
    expect(ends().map((e) => e.value)).toEqual(['First', 'Second'])
    expect(fake.sessions).toHaveLength(2)
    expect(fake.sessions[0]!.appends).toEqual([chunk(1)])
    expect(fake.sessions[1]!.appends).toEqual([chunk(2)])
  })

  it('fails the utterance in flight when the server closes with 1000, and reconnects', async () => {
    const fake = await fakeRealtime()
    fake.replyClose(1000).replyTranscript('Back again')
    const { stt, waitForEnds, ends } = sttOn(fake)
    say(stt, chunk(1))
    await waitForEnds(1)
    expect(ends()[0]!.type).toBe('Failed')
    expect((ends()[0]!.value as Error).message).toMatch(
      /^MistralSTT: connection closed \(code 1000/
    )
    say(stt, chunk(2))
    await waitForEnds(2)
    expect(ends()[1]).toEqual({ type: 'Transcript', value: 'Back again' })
    expect(fake.sessions[1]!.appends).toEqual([chunk(2)])
  })

  it('fails the utterance in flight on a socket reset, never resending its audio', async () => {
    const fake = await fakeRealtime()
    fake.reply({ type: 'delta', text: 'Half' }, { type: 'reset' }).replyTranscript('Whole')
    const { stt, waitForEnds, ends, events } = sttOn(fake)
    say(stt, chunk(1), chunk(2))
    await waitForEnds(1)
    expect(events[0]).toEqual({ type: 'Partial', value: 'Half' })
    expect(ends()[0]!.type).toBe('Failed')
    say(stt, chunk(3))
    await waitForEnds(2)
    expect(ends()[1]).toEqual({ type: 'Transcript', value: 'Whole' })
    expect(fake.sessions.map((s) => s.appends)).toEqual([[chunk(1), chunk(2)], [chunk(3)]])
  })

  it('fails an utterance mid-stream when the socket dies, and ignores the rest of its audio', async () => {
    const fake = await fakeRealtime()
    fake.replyTranscript('Next one')
    const { stt, waitForEnds, ends } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    const audio = utterance()
    stt.transcribe(audio)
    audio.write(chunk(1))
    await until(() => session!.appends.length === 1)
    session!.reset()
    await waitForEnds(1)
    expect(ends()[0]!.type).toBe('Failed')
    audio.write(chunk(2))
    audio.end()
    say(stt, chunk(3))
    await waitForEnds(2)
    expect(ends()[1]).toEqual({ type: 'Transcript', value: 'Next one' })
    expect(fake.sessions.map((s) => s.appends)).toEqual([[chunk(1)], [chunk(3)]])
  })

  it('logs a malformed server message and goes on', async () => {
    const fake = await fakeRealtime()
    fake.reply(
      { type: 'raw', text: '{"type": "transcription.text.del' },
      { type: 'raw', text: 'null' },
      { type: 'event', data: { type: 'transcription.segment', text: 'x', start: 0, end: 1 } },
      { type: 'delta', text: 'Still ' },
      { type: 'done', text: 'Still here' }
    )
    const { stt, waitForEnds, ends, logs } = sttOn(fake)
    say(stt, chunk(1))
    await waitForEnds(1)
    expect(ends()).toEqual([{ type: 'Transcript', value: 'Still here' }])
    expect(logs.some((line) => line.includes('not JSON'))).toBe(true)
  })

  it('fails with the HTTP status when the upgrade is refused (wrong key)', async () => {
    const fake = await fakeRealtime()
    fake.rejectUpgrades(401, { times: 2, body: { message: 'Unauthorized', request_id: 'r1' } })
    const { stt, waitForEnds, ends } = sttOn(fake)
    say(stt, chunk(1))
    await waitForEnds(1)
    const failed = ends()[0]!
    expect(failed.type).toBe('Failed')
    expect((failed.value as Error).message).toBe('MistralSTT: HTTP 401 Unauthorized')
    expect((failed.value as { status: number }).status).toBe(401)
    // The next utterance tries again (once: no loop of refused connections).
    say(stt, chunk(2))
    await waitForEnds(2)
    expect((ends()[1]!.value as Error).message).toBe('MistralSTT: HTTP 401 Unauthorized')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(fake.upgrades).toBe(2)
  })

  it('gives up on a stalled transcript after transcriptionTimeoutMs, then reconnects', async () => {
    const fake = await fakeRealtime()
    fake.replyStall().replyTranscript('Fresh session')
    const { stt, waitForEnds, ends } = sttOn(fake, { transcriptionTimeoutMs: 120 })
    const start = performance.now()
    say(stt, chunk(1))
    await waitForEnds(1)
    // Half the timeout, never a ms-tight bound (a timer may fire a fraction of a ms early): an STT
    // failing at once, not after its timeout, still fails it.
    expect(performance.now() - start).toBeGreaterThanOrEqual(120 / 2)
    expect((ends()[0]!.value as Error).message).toBe(
      'MistralSTT: no transcript 120 ms after the utterance ended'
    )
    say(stt, chunk(2))
    await waitForEnds(2)
    expect(ends()[1]).toEqual({ type: 'Transcript', value: 'Fresh session' })
    expect(fake.sessions).toHaveLength(2)
  })

  it('fails the waiting utterance when no session comes within connectionTimeoutMs', async () => {
    const fake = await fakeRealtime({ withholdSessionCreated: true })
    const { stt, waitForEnds, ends } = sttOn(fake, { connectionTimeoutMs: 100 })
    say(stt, chunk(1))
    await waitForEnds(1)
    expect((ends()[0]!.value as Error).message).toBe(
      'MistralSTT: no session after 100 ms (connection timeout)'
    )
    expect(fake.sessions.flatMap((s) => s.appends)).toEqual([])
  })
})

describe('MistralSTT: destroy', () => {
  it('closes the session and emits nothing afterwards', async () => {
    const fake = await fakeRealtime()
    fake.replyTranscript('Too late', { delayMs: 50 })
    const { stt, events } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    say(stt, chunk(1))
    await fake.waitForFlushes(1)
    stt.destroy()
    await session!.closed
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(events).toEqual([])
  })

  it('cuts a connection that is still opening', async () => {
    const fake = await fakeRealtime({ withholdSessionCreated: true })
    const { stt } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    stt.destroy()
    await session!.closed
    expect(session!.open).toBe(false)
  })
})
