// OpenaiRealtime on the wire: what it sends the Realtime API and how it reads what comes back,
// through `ws` to the fake server of @openmic/testing. The contract itself is checked by
// realtime-conformance.test.ts.
import {
  ProviderError,
  type RealtimeOutput,
  type RealtimeResponse,
  type RealtimeResponseEnd,
} from '@openmic/core'
import { createFakeOpenaiRealtime, type FakeOpenaiRealtime } from '@openmic/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { OpenaiRealtime, OpenaiRealtimeError, type OpenaiRealtimeOptions } from '../src/index.js'

let fake: FakeOpenaiRealtime | undefined
let model: OpenaiRealtime | undefined

afterEach(async () => {
  model?.destroy()
  model = undefined
  await fake?.close()
  fake = undefined
})

const CONFIG = {
  instructions: 'Be brief.',
  tools: [
    {
      name: 'get_time',
      description: 'The time',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  ],
}

async function start(options: OpenaiRealtimeOptions = {}) {
  fake = await createFakeOpenaiRealtime({ apiKey: 'sk-test' })
  model = new OpenaiRealtime({ apiKey: 'sk-test', baseURL: fake.baseURL, ...options })
  const failed = vi.fn()
  model.on('Failed', failed)
  return { fake, model, failed }
}

/** The response's outputs and end, once it ended. */
function ended(
  response: RealtimeResponse
): Promise<{ outputs: RealtimeOutput[]; end: RealtimeResponseEnd }> {
  const outputs: RealtimeOutput[] = []
  return new Promise((resolve) =>
    response.follow(
      (output) => outputs.push(output),
      (end) => resolve({ outputs, end })
    )
  )
}

/** `ms` of PCM16 16 kHz audio (not silent). */
const userAudio = (ms: number) => {
  const audio = Buffer.alloc(ms * 32)
  for (let i = 0; i < audio.length / 2; i++)
    audio.writeInt16LE(Math.round(5000 * Math.sin(i / 9)), i * 2)
  return audio
}

describe('OpenaiRealtime: the session', () => {
  it('opens /v1/realtime?model=gpt-realtime with the key and sends the session: prompt, tools, PCM 24 kHz, no turn detection', async () => {
    const { fake, model } = await start()
    model.configure(CONFIG)
    await fake.waitFor(() => fake.sessionUpdates.length === 1)
    expect(fake.handshakes[0]).toMatchObject({
      url: '/v1/realtime?model=gpt-realtime',
      status: 101,
    })
    expect(fake.handshakes[0]!.headers.authorization).toBe('Bearer sk-test')
    expect(model.providerName).toBe('openai')
    const pcm = { type: 'audio/pcm', rate: 24000 }
    expect(fake.sessionUpdates[0]).toEqual({
      type: 'realtime',
      model: 'gpt-realtime',
      output_modalities: ['audio'],
      instructions: 'Be brief.',
      tools: [{ type: 'function', ...CONFIG.tools[0] }],
      tool_choice: 'auto',
      audio: {
        input: {
          format: pcm,
          transcription: { model: 'gpt-4o-mini-transcribe', language: 'en' },
          turn_detection: null,
          noise_reduction: { type: 'near_field' },
        },
        output: { format: pcm, voice: 'marin' },
      },
    })
    // The same configuration again sends nothing; a change sends it
    model.configure(CONFIG)
    model.configure({ ...CONFIG, tools: [] })
    await fake.waitFor(() => fake.sessionUpdates.length === 2)
    expect((fake.sessionUpdates[1] as { tools: unknown[] }).tools).toEqual([])
  })

  it('the options shape the session: model, voice, speed, transcription, extra settings', async () => {
    const { fake, model } = await start({
      model: 'gpt-realtime-mini',
      voice: 'cedar',
      speed: 1.2,
      transcriptionModel: 'gpt-4o-transcribe',
      language: 'fr',
      noiseReduction: null,
      session: { max_output_tokens: 500 },
    })
    model.configure(CONFIG)
    await fake.waitFor(() => fake.sessionUpdates.length === 1)
    expect(fake.handshakes[0]!.url).toBe('/v1/realtime?model=gpt-realtime-mini')
    expect(fake.sessionUpdates[0]).toMatchObject({
      max_output_tokens: 500,
      audio: {
        input: { transcription: { model: 'gpt-4o-transcribe', language: 'fr' } },
        output: { voice: 'cedar', speed: 1.2 },
      },
    })
    expect((fake.sessionUpdates[0] as any).audio.input.noise_reduction).toBeUndefined()
  })
})

describe('OpenaiRealtime: audio', () => {
  it("the user's 16 kHz audio goes at 24 kHz, committed; its transcript comes back", async () => {
    const { fake, model } = await start()
    model.configure(CONFIG)
    fake.replyTranscript('Hello there')
    model.appendAudio(userAudio(200))
    model.appendAudio(userAudio(100))
    const input = model.commitAudio()
    const transcript = await new Promise((resolve) => input.whenSettled(resolve, resolve))
    expect(transcript).toBe('Hello there')
    expect(input.itemId).toBe(fake.commits[0]!.itemId)
    expect(fake.commits[0]!.audio.length).toBe(300 * 48)
    expect(fake.conversation()).toMatchObject([
      { role: 'user', text: 'Hello there', source: 'audio' },
    ])
  })

  it("a commit under the API's 100 ms minimum is cleared and transcribed '', never sent", async () => {
    const { fake, model } = await start()
    model.configure(CONFIG)
    model.appendAudio(userAudio(60))
    const input = model.commitAudio()
    expect(await new Promise((resolve) => input.whenSettled(resolve, resolve))).toBe('')
    await fake.waitFor(() =>
      fake.connections[0]?.events.some((e: any) => e.type === 'input_audio_buffer.clear')
    )
    expect(fake.commits).toEqual([])
  })

  it('the 24 kHz speech of a response comes at 16 kHz, with its transcript and item', async () => {
    const { fake, model } = await start()
    model.configure(CONFIG)
    fake.replyResponse('Hi there.', { msPerChar: 10 })
    const { outputs, end } = await ended(model.respond())
    expect(end).toEqual({ status: 'completed' })
    const audio = outputs.flatMap((output) => (output.type === 'audio' ? [output.audio] : []))
    expect(Buffer.concat(audio).length).toBe(90 * 32)
    expect(
      outputs
        .filter((output) => output.type === 'transcript')
        .map((o: any) => o.delta)
        .join('')
    ).toBe('Hi there.')
    const itemId = fake.conversation()[0]!.id
    expect(outputs[0]).toEqual({ type: 'item', itemId, kind: 'message' })
  })
})

describe('OpenaiRealtime: responses and items', () => {
  it('respond({ tools: false }) and say() send what the API needs', async () => {
    const { fake, model } = await start()
    model.configure(CONFIG)
    fake.replyResponse('First.', { msPerChar: 5 }).replyResponse('Welcome!', { msPerChar: 5 })
    await ended(model.respond({ tools: false }))
    await ended(model.say('Welcome!'))
    expect(fake.responses[0]!.body).toMatchObject({ tool_choice: 'none' })
    expect(fake.responses[1]!.body).toMatchObject({
      conversation: 'none',
      output_modalities: ['audio'],
      tool_choice: 'none',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Welcome!' }] },
      ],
    })
    // Out of band: it left nothing in the conversation
    expect(fake.conversation().map((item) => item.text)).toEqual(['First.'])
  })

  it('one response at a time: a second one is sent once the first is done; one cancelled before it went never goes', async () => {
    const { fake, model } = await start()
    model.configure(CONFIG)
    fake
      .replyResponse('One two three.', { wordDelayMs: 30 })
      .replyResponse('Three.', { msPerChar: 5 })
    const first = ended(model.respond())
    const dropped = model.respond()
    const third = ended(model.respond())
    dropped.cancel()
    expect((await ended(dropped)).end).toEqual({ status: 'cancelled' })
    expect((await first).end.status).toBe('completed')
    expect((await third).end.status).toBe('completed')
    expect(fake.responses).toHaveLength(2)
    expect(fake.responses.every((response) => response.status === 'completed')).toBe(true)
  })

  it("response.done's usage is the end's: all input and output tokens, a cancelled response's too", async () => {
    const { fake, model } = await start()
    model.configure(CONFIG)
    const usage = { input: { text: 110, audio: 40, cached: 64 }, output: { text: 12, audio: 80 } }
    fake
      .replyResponse('Hi.', { msPerChar: 5, usage })
      .replyResponseSteps({ type: 'usage', usage }, { type: 'stall' })
      .replyResponse('Bye.', { msPerChar: 5 })
    expect((await ended(model.respond())).end).toEqual({
      status: 'completed',
      usage: { inputTokens: 150, outputTokens: 92 },
    })
    const cut = model.respond()
    await fake.waitForResponses(2)
    await fake.waitFor(() => fake.responses[1]!.id !== undefined)
    cut.cancel()
    expect((await ended(cut)).end).toEqual({
      status: 'cancelled',
      usage: { inputTokens: 150, outputTokens: 92 },
    })
    // The fake, as an API that reports none: no usage
    expect((await ended(model.respond())).end).toEqual({ status: 'completed' })
  })

  it('items are created in the API shape, placed as asked; truncation never goes past the audio that came', async () => {
    const { fake, model } = await start()
    model.configure(CONFIG)
    fake.replyResponse('Spoken.', { msPerChar: 10 })
    const { outputs } = await ended(model.respond())
    const spoken = (outputs[0] as { itemId: string }).itemId
    model.createItem({ role: 'user', content: 'Before.' }, { id: 'u1', after: null })
    model.createItem(
      { role: 'tool_call', toolCallId: 'c1', toolName: 'get_time', parameters: '{}' },
      { id: 't1' }
    )
    model.createItem(
      { role: 'tool_result', toolCallId: 'c1', toolName: 'get_time', output: '"noon"' },
      { id: 't2', after: 't1' }
    )
    model.createItem({ role: 'assistant', content: 'Said before.' }, { id: 'a1', after: 'u1' })
    model.truncateItem(spoken, 10_000)
    model.deleteItem('a1')
    await fake.waitFor(
      () => fake.conversation().length === 4 && fake.conversation()[1]!.truncatedAtMs !== undefined
    )
    expect(
      fake.conversation().map((item) => [item.id, item.type, item.role, item.text, item.callId])
    ).toEqual([
      ['u1', 'message', 'user', 'Before.', undefined],
      [spoken, 'message', 'assistant', 'Spoken.', undefined],
      ['t1', 'function_call', undefined, '{}', 'c1'],
      ['t2', 'function_call_output', undefined, '"noon"', 'c1'],
    ])
    expect(fake.conversation()[1]!.truncatedAtMs).toBe(70)
  })
})

describe('OpenaiRealtime: failures', () => {
  it('a refused key: Failed with an OpenaiRealtimeError keeping the status and the API message', async () => {
    const { model, failed } = await start({ apiKey: 'sk-wrong' })
    model.configure(CONFIG)
    const { end } = await ended(model.respond())
    expect(end.status).toBe('failed')
    const error = failed.mock.calls[0]![0] as OpenaiRealtimeError
    expect(error).toBeInstanceOf(OpenaiRealtimeError)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error.status).toBe(401)
    expect(error.message).toMatch(/^OpenaiRealtime: HTTP 401 Incorrect API key/)
  })

  it('a refused session.update ends the session; the next call opens a new one', async () => {
    const { fake, model, failed } = await start({ transcriptionModel: 'no-such-model' })
    model.configure(CONFIG)
    await vi.waitFor(() => expect(failed).toHaveBeenCalled())
    expect(String(failed.mock.calls[0]![0])).toMatch(
      /session\.update refused: Invalid value: 'no-such-model'/
    )
    const first = model.session
    model.configure(CONFIG)
    expect(model.session).not.toBe(first)
    await fake.waitForConnections(2)
  })

  it("a failed response keeps the API's error code; an error naming nothing fails the response in progress", async () => {
    const { fake, model, failed } = await start()
    model.configure(CONFIG)
    fake
      .replyResponseSteps({
        type: 'fail',
        message: 'Rate limit reached',
        code: 'rate_limit_exceeded',
      })
      .replyResponseSteps(
        { type: 'transcript', delta: 'Hm' },
        { type: 'error', message: 'Something broke' }
      )
    const { end } = await ended(model.respond())
    expect(end.error).toMatchObject({
      code: 'rate_limit_exceeded',
      message: 'OpenaiRealtime: response failed: Rate limit reached',
    })
    const second = await ended(model.respond())
    expect(second.end.status).toBe('failed')
    expect(String(second.end.error)).toMatch(/Something broke/)
    expect(failed).not.toHaveBeenCalled()
  })

  it('a connection the server closes fails what is in progress, with its close code', async () => {
    const { fake, model, failed } = await start()
    model.configure(CONFIG)
    fake.replyResponseSteps(
      { type: 'transcript', delta: 'Hm' },
      { type: 'close', code: 1011, reason: 'overloaded' }
    )
    fake.replyTranscript('never', { delayMs: 1000 })
    model.appendAudio(userAudio(200))
    const input = model.commitAudio()
    const { end } = await ended(model.respond())
    expect(end.status).toBe('failed')
    expect((failed.mock.calls[0]![0] as OpenaiRealtimeError).closeCode).toBe(1011)
    expect(input.error).toBeInstanceOf(OpenaiRealtimeError)
  })

  it('needs an API key', () => {
    const saved = process.env.OPENAI_API_KEY
    delete process.env.OPENAI_API_KEY
    try {
      expect(() => new OpenaiRealtime()).toThrow(/OpenaiRealtime: no API key/)
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved
    }
  })
})
