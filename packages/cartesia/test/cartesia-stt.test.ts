import { createFakeCartesiaSTT } from '@openmic/testing'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { CartesiaSTT, type CartesiaSTTOptions } from '../src/index.js'
import { after, record, sleep, until } from './helpers.js'

async function setup(options: Partial<CartesiaSTTOptions> = {}) {
  const fake = await createFakeCartesiaSTT()
  after(() => fake.close())
  const stt = new CartesiaSTT({ apiKey: 'test-key', baseURL: fake.baseURL, ...options })
  after(() => stt.destroy())
  const recorded = record(stt, ['Partial', 'Transcript', 'TranscriptEnd', 'Failed'])
  const ends = () => recorded.events.filter((e) => e.type === 'Transcript' || e.type === 'Failed')
  return { fake, stt, ...recorded, ends }
}

/** `bytes` of PCM16 audio that tell chunks apart. */
function chunk(seed: number, bytes = 640): Buffer {
  const buffer = Buffer.alloc(bytes)
  for (let i = 0; i < bytes; i++) buffer[i] = (seed * 31 + i) % 256
  return buffer
}

function say(stt: CartesiaSTT, ...chunks: Buffer[]): PassThrough {
  const audio = new PassThrough()
  stt.transcribe(audio)
  for (const piece of chunks) audio.write(piece)
  audio.end()
  return audio
}

describe('CartesiaSTT: the wire', () => {
  it('connects through the SDK with the key in a header and the audio format in the query', async () => {
    const { fake } = await setup({ language: 'fr', keyterms: ['openmic'] })
    const [session] = await fake.waitForSessions(1)
    expect(session!.url.pathname).toBe('/stt/websocket')
    expect(Object.fromEntries(session!.url.searchParams)).toEqual({
      model: 'ink-whisper',
      encoding: 'pcm_s16le',
      sample_rate: '16000',
      language: 'fr',
      keyterm: 'openmic',
    })
    expect(session!.headers.authorization).toBe('Bearer test-key')
    expect(session!.headers['cartesia-version']).toBeTruthy()
    expect(session!.url.toString()).not.toContain('test-key')
  })

  it('sends audio as binary frames as it arrives, then finalize at the end of the utterance', async () => {
    const { fake, stt, ends } = await setup()
    fake.replyTranscript('Hello')
    const [session] = await fake.waitForSessions(1)
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.write(chunk(1))
    await until(() => session!.audio.length === 1)
    expect(session!.commands).toEqual([])
    audio.end(chunk(2))
    await until(() => ends().length === 1)
    expect(session!.audio).toEqual([chunk(1), chunk(2)])
    expect(session!.commands).toEqual(['finalize'])
    expect(session!.finalizes).toEqual([Buffer.concat([chunk(1), chunk(2)])])
  })
})

describe('CartesiaSTT: transcripts', () => {
  it('joins the final pieces of an utterance into one Transcript; interim text is Partial, never twice the same', async () => {
    const { fake, stt, events, ends } = await setup()
    fake.replyTranscript('What time is it?', {
      partials: ['What', 'What time'],
      finals: ['What time ', 'is it?'],
    })
    say(stt, chunk(1))
    await until(() => ends().length === 1)
    await sleep(20)
    expect(events).toEqual([
      { type: 'Partial', value: 'What' },
      { type: 'Partial', value: 'What time' },
      { type: 'Partial', value: 'What time is it?' },
      { type: 'Transcript', value: 'What time is it?' },
      { type: 'TranscriptEnd', value: undefined },
    ])
    expect(stt.signalsTranscriptEnd).toBe(true)
  })

  it('shows an interim text after the finals already heard', async () => {
    const { fake, stt, of, ends } = await setup()
    fake.reply(
      { type: 'transcript', text: 'Good ', isFinal: true },
      { type: 'transcript', text: 'morn', isFinal: false },
      { type: 'transcript', text: 'morning.', isFinal: true },
      { type: 'flush_done' }
    )
    say(stt, chunk(1))
    await until(() => ends().length === 1)
    expect(of('Partial')).toEqual(['Good', 'Good morn', 'Good morning.'])
    expect(of('Transcript')).toEqual(['Good morning.'])
  })

  it('gives each utterance its own text, on one session', async () => {
    const { fake, stt, of, ends } = await setup()
    fake.replyTranscript('One.').replyTranscript('Two, three.')
    say(stt, chunk(1))
    await until(() => ends().length === 1)
    say(stt, chunk(2))
    await until(() => ends().length === 2)
    expect(of('Transcript')).toEqual(['One.', 'Two, three.'])
    expect(fake.sessions).toHaveLength(1)
    expect(fake.finalizes).toEqual([chunk(1), chunk(2)])
  })

  it('ends an utterance without audio with an empty Transcript, asking nothing', async () => {
    const { fake, stt, of } = await setup()
    const [session] = await fake.waitForSessions(1)
    say(stt)
    await until(() => of('TranscriptEnd').length === 1)
    expect(of('Transcript')).toEqual([''])
    expect(session!.commands).toEqual([])
  })
})

describe('CartesiaSTT: failures', () => {
  it('turns an in-band error into Failed at once, naming the status and code', async () => {
    const { fake, stt, of, ends } = await setup()
    fake.replyError('Audio could not be decoded', { status: 400, code: 'invalid_audio' })
    say(stt, chunk(1))
    await until(() => ends().length === 1)
    expect((of('Failed')[0] as Error).message).toBe(
      'CartesiaSTT: 400 invalid_audio: Audio could not be decoded'
    )
    expect(of('Transcript')).toEqual([])
    expect(of('TranscriptEnd')).toEqual([])
  })

  it('fails with the HTTP status and message of a refused connection', async () => {
    const fake = await createFakeCartesiaSTT()
    after(() => fake.close())
    fake.rejectUpgrades(401, { body: { message: 'Invalid API key' } })
    const stt = new CartesiaSTT({ apiKey: 'bad', baseURL: fake.baseURL })
    after(() => stt.destroy())
    const { of } = record(stt, ['Failed', 'Transcript'])
    say(stt, chunk(1))
    await until(() => of('Failed').length === 1)
    expect((of('Failed')[0] as Error).message).toBe('CartesiaSTT: 401 Invalid API key')
  })

  it('fails the utterance of a session closed under it; the next one gets a new session, no audio twice', async () => {
    const { fake, stt, of, ends } = await setup()
    fake.replyClose(1000).replyTranscript('Second.')
    say(stt, chunk(1), chunk(2))
    await until(() => ends().length === 1)
    expect((of('Failed')[0] as Error).message).toMatch(/CartesiaSTT: connection closed \(code 1000/)
    say(stt, chunk(3))
    await until(() => ends().length === 2)
    expect(of('Transcript')).toEqual(['Second.'])
    expect(fake.sessions).toHaveLength(2)
    expect(fake.sessions[0]!.audio).toEqual([chunk(1), chunk(2)])
    expect(fake.sessions[1]!.audio).toEqual([chunk(3)])
  })

  it('logs a malformed message and goes on', async () => {
    const { fake, stt, of, logs, ends } = await setup()
    fake.reply(
      { type: 'raw', text: '{not json' },
      { type: 'raw', text: 'null' },
      { type: 'transcript', text: 'Fine.', isFinal: true },
      { type: 'flush_done' }
    )
    say(stt, chunk(1))
    await until(() => ends().length === 1)
    expect(of('Transcript')).toEqual(['Fine.'])
    expect(logs.join('\n')).toMatch(/not JSON/)
    expect(logs.join('\n')).toMatch(/could not read: null/)
  })
})
