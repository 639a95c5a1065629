import type { TTSWord } from '@openmic/core'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { fakeTTS, stream, ttsOn, types, until } from './helpers.js'

describe('GradiumTTS: requests', () => {
  it('sets each speak() up under its own client_req_id, waits for its ready, then sends its text', async () => {
    const fake = await fakeTTS({ readyDelayMs: 60 })
    const { tts, events, waitForEnd } = ttsOn(fake, {
      modelName: 'tts-2',
      jsonConfig: { padding_bonus: -1, temp: 0.5 },
    })
    tts.speak(Readable.from(['Hello there. ', 'How are you?']))
    await waitForEnd()
    const [session] = fake.sessions
    expect(session!.headers['x-api-key']).toBe('test-key')
    const [request] = session!.requests
    expect(request!.setup).toEqual({
      type: 'setup',
      model_name: 'tts-2',
      voice_id: 'test-voice',
      output_format: 'pcm_16000',
      json_config: JSON.stringify({ padding_bonus: -1, temp: 0.5 }),
      client_req_id: '1',
      close_ws_on_eos: false,
    })
    expect(request!.beforeReady).toEqual([])
    expect(request!.text).toBe('Hello there. How are you?')
    expect(types(session!.messages).at(-1)).toBe('end_of_stream')
    expect(events.at(-1)).toEqual({ type: 'AudioEnd', value: undefined })
    expect(events.filter((e) => e.type === 'Failed')).toEqual([])
  })

  it('sends whole words while the text streams, the rest at its end', async () => {
    const fake = await fakeTTS()
    const { tts, waitForEnd } = ttsOn(fake)
    const text = stream()
    tts.speak(text)
    const [request] = await fake.waitForRequests(1)
    for (const piece of ['Hel', 'lo wor', 'ld, how', ' are', ' you?']) {
      text.write(piece)
      await sleep(15)
    }
    text.end()
    await waitForEnd()
    expect(request!.texts).toEqual(['Hello ', 'world, ', 'how ', 'are ', 'you?'])
  })

  it('never splits a character whose UTF-8 bytes come in two chunks', async () => {
    const fake = await fakeTTS()
    const { tts, waitForEnd } = ttsOn(fake)
    const bytes = Buffer.from('Ça va très bien.')
    tts.speak(Readable.from([bytes.subarray(0, 1), bytes.subarray(1, 10), bytes.subarray(10)]))
    await waitForEnd()
    expect(fake.requests[0]!.text).toBe('Ça va très bien.')
  })

  it('gives the audio of its request only, as PCM16 16 kHz, and word timings in ms', async () => {
    const fake = await fakeTTS({ msPerWord: 100 })
    const { tts, events, audio, waitForEnd } = ttsOn(fake)
    tts.speak(Readable.from(['One two three.']))
    await waitForEnd()
    expect(audio().length).toBe(3 * 100 * 32) // 100 ms a word, 32 bytes a ms
    const words = events.filter((e) => e.type === 'Words').flatMap((e) => e.value as TTSWord[])
    expect(words).toEqual([
      { word: 'One', startMs: 0, endMs: 100 },
      { word: 'two', startMs: 100, endMs: 200 },
      { word: 'three.', startMs: 200, endMs: 300 },
    ])
  })

  it('resamples 48 kHz pcm to 16 kHz', async () => {
    const fake = await fakeTTS({ msPerWord: 100 })
    const { tts, audio, waitForEnd } = ttsOn(fake, { outputFormat: 'pcm' })
    tts.speak(Readable.from(['One two.']))
    await waitForEnd()
    expect(fake.requests[0]!.setup.output_format).toBe('pcm')
    expect(audio().length).toBe(2 * 100 * 32)
  })
})

describe('GradiumTTS: cancel', () => {
  it('cancels without a new connection: the request is ended, and nothing of it is emitted', async () => {
    const fake = await fakeTTS({ msPerWord: 40, wordDelayMs: 15 })
    const { tts, events, waitForEnd } = ttsOn(fake)
    const text = stream()
    tts.speak(text)
    text.write('one two three four five six seven eight nine ten ')
    await until(() => events.some((e) => e.type === 'Audio'))
    tts.cancel()
    const cancelledAt = events.length
    const [first] = fake.requests
    const sentBefore = first!.audioBytes
    text.end('eleven twelve')
    await until(() => first!.finished)
    // Gradium went on with the cancelled request's audio; none of it came out.
    expect(first!.audioBytes).toBeGreaterThan(sentBefore)
    expect(events.slice(cancelledAt)).toEqual([])
    expect(first!.ended).toBe(true)
    expect(first!.afterEnd).toEqual([])
    expect(first!.text).toBe('one two three four five six seven eight nine ten ')

    const next = events.length
    tts.speak(Readable.from(['Next answer.']))
    await waitForEnd(next)
    expect(fake.upgrades).toBe(1)
    expect(fake.requests.map((r) => r.id)).toEqual(['1', '2'])
    expect(fake.requests[1]!.text).toBe('Next answer.')
    expect(events.at(-1)?.type).toBe('AudioEnd')
  })

  it('a new speak() replaces the current one on the same socket', async () => {
    const fake = await fakeTTS({ msPerWord: 40, wordDelayMs: 15 })
    const { tts, events, waitForEnd } = ttsOn(fake)
    tts.speak(Readable.from(['one two three four five six seven eight nine ten']))
    await until(() => events.some((e) => e.type === 'Audio'))
    const second = events.length
    tts.speak(Readable.from(['Second.']))
    await waitForEnd(second)
    await until(() => fake.requests[0]!.finished)
    await sleep(30)
    expect(events.filter((e) => e.type === 'AudioEnd')).toHaveLength(1)
    expect(events.at(-1)?.type).toBe('AudioEnd')
    expect(fake.upgrades).toBe(1)
  })
})

describe('GradiumTTS: failures and reconnects', () => {
  it('turns an in-band error of the request into Failed, naming GradiumTTS and the code', async () => {
    const fake = await fakeTTS()
    fake.reply({ kind: 'error', message: 'Concurrency limit exceeded', code: 1008 })
    const { tts, events, waitForEnd } = ttsOn(fake)
    tts.speak(Readable.from(['Hello.']))
    await waitForEnd()
    expect(String(events.find((e) => e.type === 'Failed')?.value)).toBe(
      'GradiumError: GradiumTTS: error 1008 Concurrency limit exceeded'
    )
    expect(events.some((e) => e.type === 'AudioEnd')).toBe(false)
    // Gradium closed the socket after its error: the next speak() opens a new one.
    const next = events.length
    tts.speak(Readable.from(['Again.']))
    await waitForEnd(next)
    expect(events.at(-1)?.type).toBe('AudioEnd')
    expect(fake.sessions).toHaveLength(2)
  })

  it('names the HTTP status of a refused connection', async () => {
    const fake = await fakeTTS()
    const { tts, events, waitForEnd } = ttsOn(fake)
    await fake.waitForSessions(1)
    fake.closeSessions(1000)
    fake.rejectUpgrades(401, { body: { message: 'invalid api key' } })
    await sleep(30)
    tts.speak(Readable.from(['Hello.']))
    await waitForEnd()
    const failure = events.find((e) => e.type === 'Failed')?.value as Error & { status?: number }
    expect(failure.message).toBe('GradiumTTS: HTTP 401 invalid api key')
    expect(failure.status).toBe(401)
  })

  it('opens a new socket after an idle close 1000, and speaks there', async () => {
    const fake = await fakeTTS()
    const { tts, events, waitForEnd } = ttsOn(fake)
    const [session] = await fake.waitForSessions(1)
    session!.close(1000)
    await session!.closed
    tts.speak(Readable.from(['After the close.']))
    await waitForEnd()
    expect(events.filter((e) => e.type === 'Failed')).toEqual([])
    expect(events.at(-1)?.type).toBe('AudioEnd')
    expect(fake.sessions[1]!.requests.map((r) => r.text)).toEqual(['After the close.'])
  })

  it('fails a request whose socket dies once its text is out, and never sends that text again', async () => {
    const fake = await fakeTTS()
    fake.reply({ kind: 'reset' })
    const { tts, events, waitForEnd } = ttsOn(fake)
    tts.speak(Readable.from(['Lost words.']))
    await waitForEnd()
    expect(String(events.find((e) => e.type === 'Failed')?.value)).toContain('GradiumTTS:')
    const next = events.length
    tts.speak(Readable.from(['New words.']))
    await waitForEnd(next)
    expect(events.at(-1)?.type).toBe('AudioEnd')
    expect(fake.sessions.map((s) => s.requests.map((r) => r.text))).toEqual([
      ['Lost words.'],
      ['New words.'],
    ])
  })

  it('gives a request with no ready up after stallTimeoutMs', async () => {
    const fake = await fakeTTS()
    fake.reply({ kind: 'stall-before-ready' })
    const { tts, events, waitForEnd } = ttsOn(fake, { stallTimeoutMs: 150 })
    tts.speak(Readable.from(['Anyone there?']))
    await waitForEnd()
    expect(String(events.find((e) => e.type === 'Failed')?.value)).toContain('no answer for 150 ms')
    expect(fake.requests[0]!.texts).toEqual([])
  })

  it('logs and ignores a malformed message', async () => {
    const fake = await fakeTTS()
    const { tts, events, waitForEnd } = ttsOn(fake)
    const [session] = await fake.waitForSessions(1)
    session!.sendRaw('{oops')
    session!.sendRaw('[]')
    tts.speak(Readable.from(['Fine.']))
    await waitForEnd()
    expect(events.at(-1)?.type).toBe('AudioEnd')
  })
})
