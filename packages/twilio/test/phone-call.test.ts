import type { AddressInfo } from 'node:net'
import {
  EnergyVAD,
  MockAgent,
  MockSTT,
  MockTTS,
  type MicdropConversationItem,
  type MicdropConversationMessage,
  type MockAnswer,
} from '@openmic/core'
import { createFakeTwilioApi, FakeTwilioCall } from '@openmic/testing/twilio'
import twilio from 'twilio'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { TwilioServer, twilioHangUp, type TwilioServerOptions } from '../src/index.js'

/** PCM16 16 kHz: `ms` of a loud tone, the caller's "voice". */
function voice(ms: number): Buffer {
  const pcm = Buffer.alloc(ms * 32)
  for (let i = 0; i < ms * 16; i++) {
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / 16000)), i * 2)
  }
  return pcm
}

const cleanups: Array<() => void | Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function phoneLine(
  replies: MockAnswer[],
  utterances: string[],
  more: Partial<TwilioServerOptions> = {},
  accountSid?: string
) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', resolve))
  const servers: TwilioServer[] = []
  /** The final items of the call (its `Message` events): an answer once heard, or cut. */
  const finals: MicdropConversationItem[] = []
  /** Assistant audio the call produced (ms at 16 kHz). */
  const assistantMs = { value: 0 }
  wss.on('connection', (socket) => {
    servers.push(
      new TwilioServer(socket, {
        agent: new MockAgent({ answers: replies, autoEndCall: true }),
        stt: new MockSTT({ utterances }),
        tts: new MockTTS({ msPerChar: 40 }),
        vad: new EnergyVAD({ minSpeechMs: 100, silenceMs: 300 }),
        ...more,
      })
    )
    servers[0]!.on('Message', (item) => finals.push(item))
    servers[0]!.on('AssistantAudio', (audio) => (assistantMs.value += audio.length / 32))
  })
  cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())))
  const call = await FakeTwilioCall.connect({
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    customParameters: { token: 'good' },
    ...(accountSid ? { accountSid } : {}),
  })
  cleanups.push(() => {
    call.drop()
  })
  const answers = () =>
    finals.filter((item): item is MicdropConversationMessage => item.role === 'assistant')
  return { call, answers, assistantMs: () => assistantMs.value, server: () => servers[0]! }
}

describe('TwilioServer on a Media Stream', () => {
  it('hears the caller, answers in μ-law frames, and keeps the answer once it was played', async () => {
    const { call, answers, server } = await phoneLine(['It is noon.'], ['What time is it?'])
    await call.waitFor(() => server() !== undefined && server().callStart !== undefined)
    expect(server().callStart!.customParameters).toEqual({ token: 'good' })
    call.say(voice(600))
    await call.waitFor(() => answers().length === 1, 10_000, 'the answer heard')
    expect(server().agent.conversation.slice(1)).toEqual([
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: 'It is noon.' },
    ])
    // Released once its last mark came back: the caller heard all of the answer's audio
    expect(call.heardMs).toBeGreaterThanOrEqual(server().agent.conversation.length > 0 ? 100 : 0)
    expect(call.queuedMs).toBe(0)
    expect(call.protocolErrors).toEqual([])
  })

  it('a barge-in clears what Twilio queued and keeps the words that were heard', async () => {
    const story = 'Once upon a time a small fox lived in a quiet green forest.'
    const { call, answers, server } = await phoneLine(
      [story, 'Okay.'],
      ['Tell me a story.', 'Stop.']
    )
    await call.waitFor(() => server()?.callStart !== undefined)
    call.say(voice(600))
    await call.waitFor(() => call.heardMs > 1000, 10_000, 'a second of the story')
    call.say(voice(600))
    await call.waitFor(() => answers().length === 2, 10_000, 'the answer to "Stop."')
    const [cut] = answers()
    expect(cut!.metadata).toMatchObject({ interrupted: true, fullContent: story })
    expect(story.startsWith(cut!.content as string)).toBe(true)
    expect((cut!.content as string).length).toBeLessThan(story.length)
    expect(call.receivedEvents('clear').length).toBeGreaterThan(0)
    expect(call.protocolErrors).toEqual([])
  })

  it('a cough clears the line, then the answer plays on from where it stopped, whole', async () => {
    const story = 'Once upon a time a small fox lived in a quiet green forest.'
    const { call, answers, assistantMs } = await phoneLine([story], ['Tell me a story.', ''])
    call.say(voice(600))
    await call.waitFor(() => call.heardMs > 1000, 10_000, 'a second of the story')
    call.say(voice(300))
    await call.waitFor(() => answers().length === 1, 15_000, 'the story heard')
    expect(answers()).toEqual([{ role: 'assistant', content: story }])
    expect(call.receivedEvents('clear').length).toBe(1)
    // Heard once, all of it: what was cleared was sent again from where playback stopped, and at
    // most the frame it stopped in is heard twice
    expect(call.heardMs).toBeGreaterThanOrEqual(assistantMs() - 20)
    expect(call.heardMs).toBeLessThanOrEqual(assistantMs() + 40)
    expect(call.protocolErrors).toEqual([])
  })

  it('hangs up through the REST API once the goodbye was heard', async () => {
    const api = await createFakeTwilioApi()
    cleanups.push(() => api.close())
    const client = twilio(api.accountSid, api.authToken)
    client.api.baseUrl = api.baseURL
    const { call, answers } = await phoneLine(
      [{ text: 'Goodbye!', toolCalls: [{ name: 'end_call' }] }, ''],
      ['Bye.'],
      { hangUp: twilioHangUp(client) },
      api.accountSid
    )
    const record = api.attach(call)
    call.say(voice(600))
    const end = await call.closed
    expect(answers().map((item) => item.content)).toEqual(['Goodbye!'])
    expect(record.status).toBe('completed')
    // The goodbye was played to its end before the line was hung up
    expect(call.queuedMs).toBe(0)
    expect(call.heardMs).toBeGreaterThan(0)
    expect(end.code).toBeDefined()
  })

  it('logs bad messages and goes on: unknown events, invalid base64, media before start', async () => {
    const lines: string[] = []
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => wss.once('listening', resolve))
    cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())))
    let server: TwilioServer | undefined
    wss.on('connection', (socket) => {
      server = new TwilioServer(socket, {
        agent: new MockAgent({ answers: ['Fine.'] }),
        stt: new MockSTT({ utterances: ['How are you?'] }),
        tts: new MockTTS(),
        vad: new EnergyVAD({ minSpeechMs: 100, silenceMs: 300 }),
        logger: { log: (...message: unknown[]) => lines.push(message.join(' ')) } as never,
      })
    })
    const socket = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`)
    await new Promise((resolve) => socket.once('open', resolve))
    socket.send(JSON.stringify({ event: 'media', media: { payload: 'AAAA' }, streamSid: 'MZ1' }))
    socket.send(JSON.stringify({ event: 'start', start: { streamSid: 'MZ1', callSid: 'CA1' } }))
    socket.send(JSON.stringify({ event: 'media', media: { payload: 'not base64!' } }))
    socket.send(JSON.stringify({ event: 'surprise' }))
    socket.send('{oops')
    await vi.waitFor(() => expect(lines.length).toBeGreaterThanOrEqual(4))
    expect(lines.join('\n')).toMatch(/media before start/)
    expect(lines.join('\n')).toMatch(/not base64/)
    expect(lines.join('\n')).toMatch(/unknown event "surprise"/)
    expect(lines.join('\n')).toMatch(/not JSON/)
    expect(server!.isEnded).toBe(false)
    expect(server!.callStart).toMatchObject({ streamSid: 'MZ1', callSid: 'CA1' })
    socket.close()
    await vi.waitFor(() => expect(server!.isEnded).toBe(true))
  })
})
