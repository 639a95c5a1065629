import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { chunk, fakeASR, stream, sttOn, types, until } from './helpers.js'

describe('GradiumSTT: session', () => {
  it('opens at creation with x-api-key, sends setup first, and no audio before ready', async () => {
    const fake = await fakeASR({ readyDelayMs: 80 })
    fake.replyTranscript('hello')
    const { stt, waitForEnds } = sttOn(fake, {
      modelName: 'asr-2',
      language: 'fr',
      jsonConfig: { delay_in_frames: 8 },
    })
    const [session] = await fake.waitForSessions(1)
    expect(session!.headers['x-api-key']).toBe('test-key')
    // The utterance starts and ends while the server is not ready yet.
    const audio = stream()
    stt.transcribe(audio)
    audio.end(chunk(1))
    await waitForEnds(1)
    expect(session!.messagesBeforeReady).toEqual([session!.setup])
    expect(session!.setup).toEqual({
      type: 'setup',
      model_name: 'asr-2',
      input_format: 'pcm_16000',
      json_config: JSON.stringify({ language: 'fr', delay_in_frames: 8 }),
    })
    expect(types(session!.messages)).toEqual(['setup', 'audio', 'flush'])
  })

  it('sends no json_config when there is nothing to configure', async () => {
    const fake = await fakeASR()
    sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    await until(() => session!.setup !== undefined)
    expect(session!.setup).toEqual({
      type: 'setup',
      model_name: 'default',
      input_format: 'pcm_16000',
    })
  })
})

describe('GradiumSTT: utterances', () => {
  it('streams audio as it arrives, flushes at the end, emits Partials then one Transcript', async () => {
    const fake = await fakeASR()
    fake.replyTranscript('hello there world', { segments: ['hello there', 'world'] })
    const { stt, events, waitForEnds } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    const audio = stream()
    stt.transcribe(audio)
    audio.write(chunk(1))
    // The first chunk is on the wire before the utterance ends: nothing is held back.
    await until(() => session!.audio.length === 1)
    audio.end(chunk(2))
    await waitForEnds(1)
    await sleep(50)
    expect(events).toEqual([
      { type: 'Partial', value: 'hello there' },
      { type: 'Partial', value: 'hello there world' },
      { type: 'Transcript', value: 'hello there world' },
      { type: 'TranscriptEnd', value: undefined },
    ])
    expect(stt.signalsTranscriptEnd).toBe(true)
    expect(session!.flushes).toEqual([{ flushId: '1', audio: Buffer.concat([chunk(1), chunk(2)]) }])
  })

  it('keeps text that arrives just after flushed, within trailingTextMs', async () => {
    const fake = await fakeASR()
    fake.replyTranscript('what time is it', { afterFlushed: 1 })
    const { stt, events, waitForEnds } = sttOn(fake, { trailingTextMs: 80 })
    const audio = stream()
    stt.transcribe(audio)
    audio.end(chunk(1))
    await waitForEnds(1)
    expect(events.find((e) => e.type === 'Transcript')?.value).toBe('what time is it')
  })

  it('ends the utterance at flushed with trailingTextMs 0, and drops text that comes later', async () => {
    const fake = await fakeASR()
    fake.replyTranscript('what time is it', { afterFlushed: 1, segmentDelayMs: 20 })
    fake.replyTranscript('next one')
    const { stt, events, logs, waitForEnds } = sttOn(fake, { trailingTextMs: 0 })
    const first = stream()
    stt.transcribe(first)
    first.end(chunk(1))
    await waitForEnds(1)
    await sleep(60)
    const second = stream()
    stt.transcribe(second)
    second.end(chunk(2))
    await waitForEnds(2)
    expect(events.filter((e) => e.type === 'Transcript').map((e) => e.value)).toEqual([
      'what time is',
      'next one',
    ])
    expect(logs.some((line) => line.includes('Ignored a text segment'))).toBe(true)
  })

  it('keeps the transcript of an utterance whose session closes just after its flushed', async () => {
    const fake = await fakeASR()
    fake.reply(
      { type: 'text', text: 'bye now' },
      { type: 'flushed' },
      { type: 'close', code: 1000 }
    )
    const { stt, events, waitForEnds } = sttOn(fake, { trailingTextMs: 200 })
    const audio = stream()
    stt.transcribe(audio)
    audio.end(chunk(1))
    await waitForEnds(1)
    expect(events.filter((e) => e.type !== 'Partial')).toEqual([
      { type: 'Transcript', value: 'bye now' },
      { type: 'TranscriptEnd', value: undefined },
    ])
  })

  it('holds the next utterance until the first has its transcript, on the same session', async () => {
    const fake = await fakeASR()
    fake.replyTranscript('first', { delayMs: 80 }).replyTranscript('second')
    const { stt, events, waitForEnds } = sttOn(fake)
    const [session] = await fake.waitForSessions(1)
    const one = stream()
    const two = stream()
    stt.transcribe(one)
    one.end(chunk(1))
    stt.transcribe(two)
    two.end(chunk(2))
    await waitForEnds(2)
    expect(events.filter((e) => e.type === 'Transcript').map((e) => e.value)).toEqual([
      'first',
      'second',
    ])
    expect(fake.sessions).toHaveLength(1)
    expect(session!.flushes).toEqual([
      { flushId: '1', audio: chunk(1) },
      { flushId: '2', audio: chunk(2) },
    ])
  })

  it('resamples to 24 kHz for the pcm input format', async () => {
    const fake = await fakeASR()
    fake.replyTranscript('hi')
    const { stt, waitForEnds } = sttOn(fake, { inputFormat: 'pcm' })
    const audio = stream()
    stt.transcribe(audio)
    audio.end(Buffer.alloc(3200)) // 100 ms at 16 kHz
    await waitForEnds(1)
    expect(fake.lastSession!.setup?.input_format).toBe('pcm')
    expect(fake.flushes[0]!.audio.length).toBe(4800) // 100 ms at 24 kHz
  })

  it('gives an utterance with no audio an empty Transcript without asking Gradium', async () => {
    const fake = await fakeASR()
    const { stt, events, waitForEnds } = sttOn(fake)
    const audio = stream()
    stt.transcribe(audio)
    audio.end()
    await waitForEnds(1)
    expect(events).toEqual([
      { type: 'Transcript', value: '' },
      { type: 'TranscriptEnd', value: undefined },
    ])
    expect(fake.flushes).toEqual([])
  })
})

describe('GradiumSTT: failures', () => {
  it('turns an in-band error into Failed at once, then opens a new session for the next utterance', async () => {
    const fake = await fakeASR()
    fake.replyError('Invalid audio format', { code: 1008 }).replyTranscript('again')
    const { stt, events, waitForEnds } = sttOn(fake)
    const one = stream()
    stt.transcribe(one)
    one.end(chunk(1))
    await waitForEnds(1)
    const failure = events.find((e) => e.type === 'Failed')?.value as Error
    expect(failure.message).toBe('GradiumSTT: error 1008 Invalid audio format')
    const two = stream()
    stt.transcribe(two)
    two.end(chunk(2))
    await waitForEnds(2)
    expect(events.filter((e) => e.type === 'Transcript').map((e) => e.value)).toEqual(['again'])
    // No chunk is sent twice: the new session got the new utterance's audio only.
    expect(fake.sessions.map((s) => s.audio)).toEqual([[chunk(1)], [chunk(2)]])
  })

  it('fails an utterance cut by a close 1000, and the next one works on a new session', async () => {
    const fake = await fakeASR()
    fake.replyClose(1000).replyTranscript('after the close')
    const { stt, events, waitForEnds } = sttOn(fake)
    const one = stream()
    stt.transcribe(one)
    one.end(chunk(1))
    await waitForEnds(1)
    expect(String(events.find((e) => e.type === 'Failed')?.value)).toContain(
      'GradiumSTT: connection closed (code 1000'
    )
    const two = stream()
    stt.transcribe(two)
    two.end(chunk(2))
    await waitForEnds(2)
    expect(events.filter((e) => e.type === 'Transcript').map((e) => e.value)).toEqual([
      'after the close',
    ])
    expect(fake.sessions.map((s) => s.audio)).toEqual([[chunk(1)], [chunk(2)]])
  })

  it('names the HTTP status of a refused connection', async () => {
    const fake = await fakeASR()
    fake.rejectUpgrades(401, { body: { message: 'invalid api key' } })
    const { stt, events, waitForEnds } = sttOn(fake)
    const audio = stream()
    stt.transcribe(audio)
    audio.end(chunk(1))
    await waitForEnds(1)
    const failure = events.find((e) => e.type === 'Failed')?.value as Error & { status?: number }
    expect(failure.message).toBe('GradiumSTT: HTTP 401 invalid api key')
    expect(failure.status).toBe(401)
  })

  it('fails at once when Gradium refuses the key in band (error 1008 at setup)', async () => {
    const fake = await fakeASR({ apiKey: 'right-key' })
    const { stt, events, waitForEnds } = sttOn(fake, { apiKey: 'wrong-key' })
    const audio = stream()
    stt.transcribe(audio)
    audio.end(chunk(1))
    await waitForEnds(1)
    expect(String(events.find((e) => e.type === 'Failed')?.value)).toBe(
      'GradiumError: GradiumSTT: error 1008 Invalid API key'
    )
    expect(fake.flushes).toEqual([])
  })

  it('fails a session that never becomes ready within connectionTimeoutMs', async () => {
    const fake = await fakeASR({ withholdReady: true })
    const { stt, events, waitForEnds } = sttOn(fake, { connectionTimeoutMs: 150 })
    const audio = stream()
    stt.transcribe(audio)
    audio.end(chunk(1))
    await waitForEnds(1)
    expect(String(events.find((e) => e.type === 'Failed')?.value)).toContain(
      'not ready after 150 ms'
    )
    expect(fake.lastSession!.audio).toEqual([])
  })

  it('logs and ignores malformed messages and a flushed of another flush_id', async () => {
    const fake = await fakeASR()
    fake.reply(
      { type: 'raw', text: '{not json' },
      { type: 'event', data: { type: 'flushed', flush_id: '99' } },
      { type: 'text', text: 'still fine' },
      { type: 'flushed' }
    )
    const { stt, events, logs, waitForEnds } = sttOn(fake)
    const audio = stream()
    stt.transcribe(audio)
    audio.end(chunk(1))
    await waitForEnds(1)
    expect(events.find((e) => e.type === 'Transcript')?.value).toBe('still fine')
    expect(logs.some((line) => line.includes('not JSON'))).toBe(true)
  })
})
