import type { AddressInfo } from 'node:net'
import {
  EnergyVAD,
  MockAgent,
  MockSTT,
  MockTTS,
  type Denoiser,
  type MicdropConversationItem,
  type MicdropConversationMessage,
  type MockAnswer,
} from '@openmic/core'
import {
  MemoryConversationStore,
  MicdropError,
  MicdropErrorCode,
  type MediaStreamServer,
  type MediaStreamServerOptions,
  type TurnReport,
} from '@openmic/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import type { FakePhoneCall } from './FakePhoneCall.js'

/** A phone line server of any carrier, as the suite drives it. */
export type AnyMediaStreamServer = MediaStreamServer<unknown, any, any>

/** A carrier's fake hang-up API, as the suite uses it. */
export interface PhoneConformanceHangUpApi<Call> {
  /** The server's `hangUp` option, through the carrier's REST API (its SDK, if it has one). */
  hangUp: (callId: string) => Promise<void>
  /** The call is known to the API; `hungUp()` says whether the API hung it up. */
  attach(call: Call): { hungUp(): boolean }
  close(): Promise<void>
}

/** Options of {@link describePhoneConformance}: how to reach one carrier's server and fakes. */
export interface PhoneConformanceOptions<Call extends FakePhoneCall> {
  /** The carrier's name, in the `describe` block. */
  carrier: string
  /** The carrier's server for one call (e.g. `new TwilioServer(socket, options)`). */
  createServer(socket: WebSocket, options: MediaStreamServerOptions<any>): AnyMediaStreamServer
  /** The carrier's fake call, connected to `url` with the call's custom `parameters`. */
  connect(url: string, parameters: Record<string, string>): Promise<Call>
  /** The carrier's fake REST API, with the server's `hangUp` through it. */
  hangUpApi(): Promise<PhoneConformanceHangUpApi<Call>>
  /**
   * Raw frames of the carrier's wire, for the bad-input tests: its `start` (with these custom
   * parameters, as given: some are not strings) and a `media`.
   */
  wire: { start(parameters: Record<string, unknown>): string; media(payload: string): string }
}

/** PCM16 16 kHz: `ms` of a loud tone, the caller's "voice" (the suite's VAD is `EnergyVAD`). */
function voice(ms: number): Buffer {
  const pcm = Buffer.alloc(ms * 32)
  for (let i = 0; i < ms * 16; i++) {
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / 16000)), i * 2)
  }
  return pcm
}

const STORY = 'Once upon a time a small fox lived in a quiet green forest.'
/** The suite's TTS: `MockTTS` with 40 ms of audio a character (word timings follow). */
const MS_PER_CHAR = 40
/** A phone frame, and the line's mark spacing: how exactly playback is known between two marks. */
const FRAME_MS = 20
const MARK_SPACING_MS = 100
/**
 * How far the server's count of the audio played may be from the phone's: known to a mark's
 * spacing and a frame, three times that as the two are read at different instants (the barge-in,
 * the clear's arrival) that a loaded machine pulls apart.
 */
const PLAYED_SLACK_MS = 3 * (MARK_SPACING_MS + FRAME_MS)

/** The words of `text` whose audio ended within its first `ms` (the suite's TTS timing). */
function wordsSpokenBy(text: string, ms: number): string {
  let end = 0
  for (const word of text.matchAll(/\S+/g)) {
    const wordEnd = word.index + word[0].length
    if (wordEnd * MS_PER_CHAR > ms) break
    end = wordEnd
  }
  return text.slice(0, end)
}

/**
 * Declares vitest tests that a carrier's phone server (on `MediaStreamServer`) must pass against
 * the carrier's fake: the answer heard and kept once played; a barge-in cut to exactly the words
 * heard (the server's count of the audio played is the phone's to a mark's spacing and a frame); a
 * cough that lets the answer play on; the REST hang-up after the goodbye, and none for a caller who
 * hung up first; bad input (custom parameters that are not strings included) logged while the
 * call and another one go on; a dropped socket that keeps the stored conversation; preemptive
 * answers at the VAD's pauses; the `params`, `dtmfToAgent` and `denoise` options.
 *
 * @example
 * describePhoneConformance({
 *   carrier: 'Twilio',
 *   createServer: (socket, options) => new TwilioServer(socket, options),
 *   connect: (url, customParameters) => FakeTwilioCall.connect({ url, customParameters }),
 *   hangUpApi: async () => { ... },
 *   wire: { start: ..., media: ... },
 * })
 */
export function describePhoneConformance<Call extends FakePhoneCall>(
  options: PhoneConformanceOptions<Call>
): void {
  const cleanups: Array<() => void | Promise<unknown>> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  interface Line {
    url: string
    servers: AnyMediaStreamServer[]
    lines: string[]
    /** The `Start` events' arguments of the server `index`. */
    starts(index?: number): unknown[][]
    /** Final items (`Message` events) of the server `index`. */
    finals(index?: number): MicdropConversationItem[]
    answers(index?: number): MicdropConversationMessage[]
    assistantMs(index?: number): number
    /** The `Turn` reports of the server `index`. */
    turns(index?: number): TurnReport[]
  }

  type MoreOptions = Partial<MediaStreamServerOptions<any>>

  /**
   * A WebSocket server on 127.0.0.1 whose every connection is one call with `more` options (or
   * those `more` gives the call of this index).
   */
  async function phoneServer(
    replies: MockAnswer[],
    utterances: string[],
    more: MoreOptions | ((index: number) => MoreOptions) = {}
  ): Promise<Line> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => wss.once('listening', resolve))
    cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())))
    const servers: AnyMediaStreamServer[] = []
    const finals: MicdropConversationItem[][] = []
    const assistantMs: number[] = []
    const lines: string[] = []
    const starts: unknown[][][] = []
    const turns: TurnReport[][] = []
    wss.on('connection', (socket) => {
      const index = servers.length
      turns.push([])
      finals.push([])
      assistantMs.push(0)
      starts.push([])
      const server = options.createServer(socket, {
        agent: new MockAgent({ answers: replies, autoEndCall: true }),
        stt: new MockSTT({ utterances }),
        tts: new MockTTS({ msPerChar: MS_PER_CHAR }),
        vad: new EnergyVAD({ minSpeechMs: 100, silenceMs: 300 }),
        logger: { log: (...message: unknown[]) => lines.push(message.join(' ')) } as never,
        ...(typeof more === 'function' ? more(index) : more),
      })
      server.on('Start', (...args: unknown[]) => starts[index]!.push(args))
      server.on('Message', (item: MicdropConversationItem) => finals[index]!.push(item))
      server.on('AssistantAudio', (audio: Buffer) => (assistantMs[index]! += audio.length / 32))
      server.on('Turn', (report: TurnReport) => turns[index]!.push(report))
      servers.push(server)
    })
    const answers = (index = 0) =>
      (finals[index] ?? []).filter(
        (item): item is MicdropConversationMessage => item.role === 'assistant'
      )
    return {
      url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
      servers,
      lines,
      starts: (index = 0) => starts[index] ?? [],
      finals: (index = 0) => finals[index] ?? [],
      answers,
      assistantMs: (index = 0) => assistantMs[index] ?? 0,
      turns: (index = 0) => turns[index] ?? [],
    }
  }

  async function connect(line: Line, parameters: Record<string, string> = { token: 'good' }) {
    const call = await options.connect(line.url, parameters)
    cleanups.push(() => call.drop())
    return call
  }

  describe(`${options.carrier}: phone line conformance`, () => {
    it('hears the caller, answers in μ-law frames, and keeps the answer once it was played', async () => {
      const line = await phoneServer(['It is noon.'], ['What time is it?'])
      const call = await connect(line)
      await call.waitFor(() => line.servers[0]?.callStart !== undefined)
      call.say(voice(600))
      await call.waitFor(() => line.answers().length === 1, 10_000, 'the answer heard')
      expect(line.servers[0]!.agent.conversation.slice(1)).toEqual([
        { role: 'user', content: 'What time is it?' },
        { role: 'assistant', content: 'It is noon.' },
      ])
      // Kept once its last mark came back: all of its audio was played
      expect(call.heardMs).toBeGreaterThanOrEqual(line.assistantMs() - 20)
      expect(call.queuedMs).toBe(0)
      // The turn is reported answered, all of its audio heard
      await call.waitFor(() => line.turns().length === 1, 5_000, 'the turn reported')
      const [turn] = line.turns()
      expect(turn!.outcome).toBe('answered')
      expect(turn!.playback!.heardMs).toBe(turn!.playback!.sentMs)
      expect(turn!.playback!.sentMs).toBeCloseTo(line.assistantMs(), 0)
      expect(call.protocolErrors).toEqual([])
    })

    it('an answer played to its end is known heard from the marks (reported), not estimated', async () => {
      const line = await phoneServer(['It is noon.'], ['What time is it?'])
      const call = await connect(line)
      await call.waitFor(() => line.servers[0]?.callStart !== undefined)
      call.say(voice(600))
      await call.waitFor(() => line.turns().length === 1, 10_000, 'the turn reported')
      expect(line.turns()[0]!.playback?.source).toBe('reported')
    })

    it('a barge-in clears what the carrier queued and keeps exactly the words that were heard, every time', async () => {
      const line = await phoneServer(
        [STORY, 'Okay.', STORY, 'Okay.'],
        ['Tell me a story.', 'Stop.', 'Again.', 'Stop.']
      )
      const call = await connect(line)
      // Twice: what the line counts must not drift from what the phone played after a cut
      for (const [round, talkOverAfterMs] of [1000, 1400].entries()) {
        const before = call.heardMs
        call.say(voice(600))
        await call.waitFor(() => call.heardMs - before > talkOverAfterMs, 10_000, 'the story')
        call.say(voice(600))
        await call.waitFor(() => line.answers().length === 2 * round + 2, 10_000, 'the "Okay."')
        const cut = line.answers()[2 * round]!
        expect(cut.metadata).toMatchObject({ interrupted: true, fullContent: STORY })
        const { heardMs } = cut.metadata as { heardMs: number }
        // What the phone had played of the story when the clear came, in bytes the fake played
        // (the frame playing counted whole), not a clock reading
        expect(call.cleared).toHaveLength(round + 1)
        const phoneHeardMs = call.cleared[round]!.heardMs - before
        // Known at each mark, estimated between two: the server's count is the phone's to one
        // mark's spacing and a frame (PLAYED_SLACK_MS)
        expect(Math.abs(heardMs - phoneHeardMs)).toBeLessThanOrEqual(PLAYED_SLACK_MS)
        // The text kept is exactly the words whose audio ended within it, not some prefix
        expect(cut.content).toBe(wordsSpokenBy(STORY, heardMs))
        expect(heardMs).toBeGreaterThan(talkOverAfterMs)
        expect(heardMs).toBeLessThan(STORY.length * MS_PER_CHAR)
      }
      expect(call.protocolErrors).toEqual([])
    })

    it('a cough clears the line, then the answer plays on from where it stopped, whole', async () => {
      const line = await phoneServer([STORY], ['Tell me a story.', ''])
      const call = await connect(line)
      call.say(voice(600))
      await call.waitFor(() => call.heardMs > 1000, 10_000, 'a second of the story')
      call.say(voice(300))
      await call.waitFor(() => line.answers().length === 1, 15_000, 'the story heard')
      expect(line.answers()).toEqual([{ role: 'assistant', content: STORY }])
      expect(call.cleared.length).toBe(1)
      // Heard once, all of it: the line resumes where the server reckoned playback stopped, exact
      // at each mark and estimated on the clock between two (100 ms apart), so a busy machine may
      // replay or skip up to one mark's spacing and a frame (PLAYED_SLACK_MS), never a second copy
      // of the story
      expect(Math.abs(call.heardMs - line.assistantMs())).toBeLessThanOrEqual(PLAYED_SLACK_MS)
      expect(call.protocolErrors).toEqual([])
    })

    it('hangs up through the REST API once the goodbye was heard', async () => {
      const api = await options.hangUpApi()
      cleanups.push(() => api.close())
      const line = await phoneServer(
        [{ text: 'Goodbye!', toolCalls: [{ name: 'end_call' }] }, ''],
        ['Bye.'],
        { hangUp: api.hangUp }
      )
      const call = await connect(line)
      const record = api.attach(call)
      call.say(voice(600))
      await call.closed
      expect(line.answers().map((item) => item.content)).toEqual(['Goodbye!'])
      expect(record.hungUp()).toBe(true)
      // The goodbye was played to its end before the line was hung up
      expect(call.queuedMs).toBe(0)
      expect(call.heardMs).toBeGreaterThanOrEqual(line.assistantMs() - 20)
    })

    it('a caller who hangs up before the goodbye was heard is not hung up through the REST API', async () => {
      const hangUps: string[] = []
      const goodbye =
        'Goodbye! It was a real pleasure to talk with you today, have a lovely evening.'
      const line = await phoneServer(
        [{ text: goodbye, toolCalls: [{ name: 'end_call' }] }, ''],
        ['Bye.'],
        { hangUp: async (callId: string) => void hangUps.push(callId) }
      )
      const call = await connect(line)
      call.say(voice(600))
      await call.waitFor(() => call.heardMs > 500, 10_000, 'the goodbye playing')
      await call.hangUp()
      const server = line.servers[0]!
      // The stream is over on the server's side too: a hang-up would have been asked by now
      await vi.waitFor(() => expect(server.socket.readyState).toBe(WebSocket.CLOSED))
      await new Promise((resolve) => setImmediate(resolve))
      expect(server.isEnded).toBe(true)
      expect(hangUps).toEqual([])
      // The goodbye is kept as far as it was heard
      const [cut] = line.answers()
      expect(cut!.metadata).toMatchObject({ interrupted: true, fullContent: goodbye })
    })

    it('logs bad messages and goes on: unknown events, invalid base64, media before start, parameters that are not strings', async () => {
      const line = await phoneServer(['Fine.'], ['How are you?'])
      const socket = new WebSocket(line.url)
      cleanups.push(() => socket.terminate())
      await new Promise((resolve) => socket.once('open', resolve))
      socket.send(options.wire.media('AAAA'))
      socket.send(options.wire.start({ token: 'good', attempts: 3, caller: { id: 7 } }))
      socket.send(options.wire.media('not base64!'))
      socket.send(JSON.stringify({ event: 'surprise' }))
      socket.send('{oops')
      socket.send(Buffer.from([1, 2, 3]))
      await vi.waitFor(() => expect(line.lines.length).toBeGreaterThanOrEqual(7))
      const log = line.lines.join('\n')
      expect(log).toMatch(/media before start/)
      expect(log).toMatch(/not base64/)
      expect(log).toMatch(/unknown event "surprise"/)
      expect(log).toMatch(/not JSON/)
      expect(log).toMatch(/binary frame/)
      // The parameters that are not strings are named and left out; the call is answered
      expect(log).toMatch(/Ignored the custom parameter "attempts": a number, not a string/)
      expect(log).toMatch(/Ignored the custom parameter "caller": an object, not a string/)
      expect(line.servers[0]!.params).toEqual({ token: 'good' })
      expect(line.servers[0]!.isEnded).toBe(false)
      expect(line.servers[0]!.callStart).toBeDefined()
      socket.close()
      await vi.waitFor(() => expect(line.servers[0]!.isEnded).toBe(true))
    })

    it('a socket dropped mid-answer ends that call only: its conversation is stored, another call goes on', async () => {
      const store = new MemoryConversationStore()
      const line = await phoneServer([STORY], ['Tell me a story.'], (index) => ({
        store,
        conversationId: `call-${index}`,
      }))
      const dropped = await connect(line)
      const other = await connect(line)
      dropped.say(voice(600))
      other.say(voice(600))
      await dropped.waitFor(() => dropped.heardMs > 500, 10_000, 'half a second of the story')
      await dropped.drop()
      await vi.waitFor(() => expect(line.servers[0]!.isEnded).toBe(true))
      await other.waitFor(() => line.answers(1).length === 1, 15_000, "the other call's answer")
      expect(line.answers(1)).toEqual([{ role: 'assistant', content: STORY }])
      const records = await store.load('call-0')
      const items = records.flatMap((record) => (record.type === 'item' ? [record.item] : []))
      expect(items[0]).toEqual({ role: 'user', content: 'Tell me a story.' })
      const cut = items[1] as MicdropConversationMessage
      expect(cut.metadata).toMatchObject({ interrupted: true, fullContent: STORY })
      expect(STORY.startsWith(cut.content as string)).toBe(true)
      expect(other.protocolErrors).toEqual([])
    })

    it("preemptive: the answer starts at the VAD's pause and is held until the end of the turn", async () => {
      const order: string[] = []
      const vad = new EnergyVAD({ minSpeechMs: 100, silenceMs: 600, pauseMs: 200 })
      vad.on('SpeechPause', () => order.push('pause'))
      vad.on('SpeechEnd', () => order.push('end'))
      const agent = new MockAgent({ answers: ['It is noon.'] })
      const answer = agent.answer.bind(agent)
      agent.answer = () => {
        order.push('agent')
        return answer()
      }
      const line = await phoneServer([], ['What time is it?'], { vad, agent, preemptive: true })
      const call = await connect(line)
      await call.waitFor(() => line.servers[0]?.callStart !== undefined)
      line.servers[0]!.once('AssistantAudio', () => order.push('audio'))
      call.say(voice(600))
      await call.waitFor(() => line.answers().length === 1, 10_000, 'the answer heard')
      // Asked at the pause, its audio out only once the silence was long enough to end the turn
      expect(order).toEqual(['pause', 'agent', 'end', 'audio'])
      expect(line.finals()).toEqual([
        { role: 'user', content: 'What time is it?' },
        { role: 'assistant', content: 'It is noon.' },
      ])
    })

    it('preemptive: a caller who goes on after the pause drops the held answer, unheard', async () => {
      const vad = new EnergyVAD({ minSpeechMs: 100, silenceMs: 600, pauseMs: 200 })
      const line = await phoneServer(['Dropped unheard.', 'It is noon.'], ['What time', 'is it?'], {
        vad,
        preemptive: true,
      })
      const call = await connect(line)
      call.say(voice(600))
      call.silence(350) // a pause (200 ms), not the end of the turn (600 ms)
      call.say(voice(600))
      await call.waitFor(() => line.answers().length === 1, 10_000, 'the answer heard')
      expect(line.finals()).toEqual([
        { role: 'user', content: 'What time is it?' },
        { role: 'assistant', content: 'It is noon.' },
      ])
      // Only the kept answer reached the line, and the phone played all of it: 11 characters
      const noonMs = 'It is noon.'.length * MS_PER_CHAR
      expect(line.assistantMs()).toBe(noonMs)
      expect(call.heardMs).toBe(noonMs)
    })

    it('params: the parsed parameters reach Start and the params getter', async () => {
      const line = await phoneServer(['Hi.'], ['Hello?'], {
        params: (parameters: Record<string, string>) => ({ token: parameters.token, n: 1 }),
      })
      const call = await connect(line, { token: 'good' })
      await call.waitFor(() => line.servers[0]?.params !== undefined)
      expect(line.servers[0]!.params).toEqual({ token: 'good', n: 1 })
      expect(line.starts()).toHaveLength(1)
      expect(line.starts()[0]![0]).toEqual(line.servers[0]!.callStart)
      expect(line.starts()[0]![1]).toEqual({ token: 'good', n: 1 })
      call.say(voice(600))
      await call.waitFor(() => line.answers().length === 1, 10_000, 'the answer')
    })

    it('params: an async check holds the caller audio until it resolves, none of it lost', async () => {
      let accept!: (params: { ok: true }) => void
      const line = await phoneServer(['Hi.'], ['Hello?'], {
        params: () => new Promise<{ ok: true }>((resolve) => (accept = resolve)),
      })
      const call = await connect(line)
      call.say(voice(600))
      await call.waitFor(() => !call.speaking, 5000, 'the caller spoke')
      expect(line.servers[0]!.params).toBeUndefined()
      accept({ ok: true })
      await call.waitFor(() => line.answers().length === 1, 10_000, 'the answer')
      expect(line.servers[0]!.agent.conversation.at(-2)).toEqual({
        role: 'user',
        content: 'Hello?',
      })
    })

    it('params: refused parameters close the call with a log line, never answered', async () => {
      const api = await options.hangUpApi()
      cleanups.push(() => api.close())
      const line = await phoneServer(['Hi.'], ['Hello?'], {
        firstMessage: 'Welcome!',
        hangUp: api.hangUp,
        params: (parameters: Record<string, string>) => {
          if (parameters.token !== 'good') {
            throw new MicdropError(MicdropErrorCode.Unauthorized, 'Invalid token')
          }
          return parameters
        },
      })
      const call = await connect(line, { token: 'bad' })
      const record = api.attach(call)
      const end = await call.closed
      expect(end.code).toBe(MicdropErrorCode.Unauthorized)
      expect(line.lines.join('\n')).toMatch(/Refused the call: Invalid token/)
      expect(call.receivedEvents('media')).toEqual([])
      expect(line.finals()).toEqual([])
      // The refused stream's call id is unproven: it is never hung up through the REST API
      expect(record.hungUp()).toBe(false)
    })

    it('params: a check that throws another error is 4400 Invalid params, logged with it', async () => {
      const line = await phoneServer(['Hi.'], ['Hello?'], {
        params: () => {
          throw new Error('token is required')
        },
      })
      const call = await connect(line, {})
      const end = await call.closed
      expect(end.code).toBe(MicdropErrorCode.BadRequest)
      expect(line.lines.join('\n')).toMatch(/Refused the call: Invalid params.*token is required/)
    })

    it('dtmfToAgent: the keys up to # are a user message, answered; Dtmf fires for each', async () => {
      const line = await phoneServer(['Your PIN is noted.'], [], { dtmfToAgent: true })
      const call = await connect(line)
      await call.waitFor(() => line.servers[0]?.callStart !== undefined)
      const keys: string[] = []
      line.servers[0]!.on('Dtmf', (digit: string) => keys.push(digit))
      for (const digit of ['1', '2', '3', '#']) call.sendDtmf(digit)
      await call.waitFor(() => line.answers().length === 1, 10_000, 'the answer to the keys')
      expect(keys).toEqual(['1', '2', '3', '#'])
      expect(line.finals()[0]).toEqual({ role: 'user', content: '123' })
    })

    it('dtmfToAgent: a pause sends the keys too; without the option they only fire Dtmf', async () => {
      const withOption = await phoneServer(['Noted.'], [], { dtmfToAgent: { pauseMs: 100 } })
      const without = await phoneServer(['Noted.'], [])
      const call = await connect(withOption)
      const plain = await connect(without)
      await call.waitFor(() => withOption.servers[0]?.callStart !== undefined)
      await plain.waitFor(() => without.servers[0]?.callStart !== undefined)
      const keys: string[] = []
      without.servers[0]!.on('Dtmf', (digit: string) => keys.push(digit))
      call.sendDtmf('4')
      call.sendDtmf('2')
      plain.sendDtmf('4')
      await call.waitFor(() => withOption.answers().length === 1, 10_000, 'the answer')
      expect(withOption.finals()[0]).toEqual({ role: 'user', content: '42' })
      await vi.waitFor(() => expect(keys).toEqual(['4']))
      expect(without.servers[0]!.agent.conversation.slice(1)).toEqual([])
    })

    it('denoise: the VAD and the STT get the denoised audio; the denoiser is destroyed at the end', async () => {
      const denoised = new Set<Buffer>()
      let destroyed = false
      const halve: Denoiser = {
        process(pcm16) {
          const out = Buffer.alloc(pcm16.length)
          for (let i = 0; i + 1 < pcm16.length; i += 2)
            out.writeInt16LE(pcm16.readInt16LE(i) >> 1, i)
          denoised.add(out)
          return out
        },
        destroy: () => (destroyed = true),
      }
      const line = await phoneServer(['Hi.'], ['Hello?'], { denoise: halve })
      const call = await connect(line)
      await call.waitFor(() => line.servers[0]?.callStart !== undefined)
      const heardBySTT: Buffer[] = []
      line.servers[0]!.on('UserAudio', (audio: Buffer) => heardBySTT.push(audio))
      call.say(voice(600))
      await call.waitFor(() => line.answers().length === 1, 10_000, 'the answer')
      expect(heardBySTT.length).toBeGreaterThan(0)
      // The utterance opens with the pre-roll (a slice of kept audio), then goes on chunk by chunk
      expect(heardBySTT.slice(1).every((audio) => denoised.has(audio))).toBe(true)
      await call.stop()
      await vi.waitFor(() => expect(destroyed).toBe(true))
    })

    it('denoise: a denoiser that throws is logged and dropped, the call goes on', async () => {
      const failing: Denoiser = {
        process() {
          throw new Error('wasm trap')
        },
        destroy() {},
      }
      const line = await phoneServer(['Hi.'], ['Hello?'], { denoise: failing })
      const call = await connect(line)
      call.say(voice(600))
      await call.waitFor(() => line.answers().length === 1, 10_000, 'the answer')
      expect(line.lines.join('\n')).toMatch(/Denoiser failed.*wasm trap/)
    })
  })
}
