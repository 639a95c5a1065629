import { MockSTT } from '@openmic/core'
import type { MicdropConversationItem, MicdropConversationMessage } from '@openmic/core/protocol'
import { LOCAL_AGENT_GREETING } from '@openmic/local'
import type { CallerUtterance, FakeTwilioCall } from '@openmic/testing/twilio'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { placeCall, PUBLIC_URL, startPhoneDemo, type PhoneDemo } from './phone-line.js'
import { speakPcm } from './speech.js'

/** The local agent's answer to what it does not understand: long enough to be talked over. */
const DONT_KNOW =
  'Sorry, I am a small offline assistant. I can tell you the time, or end the call when you say goodbye.'
const GOODBYE = 'Goodbye, and have a nice day!'
/** A frame of a phone's audio. */
const FRAME_MS = 20
/**
 * The phone line's marks are 100 ms apart: where playback is, at a barge-in, is known to that and
 * a frame (exact at each mark, estimated on the clock between two). The server's count and the
 * phone's are read at different instants (the barge-in, the clear's arrival), and a loaded machine
 * stretches the time between them: the tests allow three times that precision.
 */
const MARK_SLACK_MS = 3 * (100 + FRAME_MS)

let demo: PhoneDemo | undefined
afterEach(async () => {
  await demo?.close()
  demo = undefined
})

const assistants = (items: MicdropConversationItem[]) =>
  items.filter((item): item is MicdropConversationMessage => item.role === 'assistant')
const users = (items: MicdropConversationItem[]) =>
  items.filter((item): item is MicdropConversationMessage => item.role === 'user')

/** Waits until the stored conversation satisfies `check` (an `expect`), and returns it. */
async function storedUntil(
  check: (items: MicdropConversationItem[]) => void,
  timeout = 20_000
): Promise<MicdropConversationItem[]> {
  return vi.waitFor(
    async () => {
      const items = await demo!.stored()
      check(items)
      return items
    },
    { timeout, interval: 20 }
  )
}

/** The audio heard from `fromMs` (of all the heard audio) on, decoded: PCM16 16 kHz. */
function heardFrom(call: FakeTwilioCall, fromMs: number): Buffer {
  return call.heardAudio().subarray(Math.round(fromMs) * 32)
}

/** `promise`, or a rejection naming `what` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No ${what} in ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Loudness of PCM16 in dBFS (RMS). */
function dbfs(pcm: Buffer): number {
  let sum = 0
  for (let i = 0; i + 1 < pcm.length; i += 2) sum += pcm.readInt16LE(i) ** 2
  return 20 * Math.log10(Math.sqrt(sum / Math.max(1, pcm.length / 2)) / 32768)
}

/** The characters of `text` heard in `heardMs` of `totalMs`: the server's even spread, at a word's end. */
function heardChars(text: string, heardMs: number, totalMs: number): number {
  const chars = Math.floor((text.length * Math.min(Math.max(heardMs, 0), totalMs)) / totalMs)
  let end = 0
  for (const match of text.matchAll(/\S+/g)) {
    const wordEnd = match.index + match[0].length
    if (wordEnd > chars) break
    end = wordEnd
  }
  return end
}

/** Checks that the answer heard from `fromMs` (of all heard audio) is speech, as long as the TTS made it. */
function expectSpokenAnswer(call: FakeTwilioCall, fromMs: number, spokenMs: number) {
  // Amounts of audio (bytes the fake played / 8), not clock readings: the answer was heard whole,
  // so these hold on any machine however slow
  const heardMs = call.heardMs - fromMs
  // To the frame: its last one is padded with silence
  expect(Math.abs(heardMs - spokenMs)).toBeLessThanOrEqual(2 * FRAME_MS)
  // A spoken sentence, not a click nor a runaway stream
  expect(heardMs).toBeGreaterThan(700)
  expect(heardMs).toBeLessThan(8000)
  expect(dbfs(heardFrom(call, fromMs))).toBeGreaterThan(-35)
}

describe('a phone call into the demo (Twilio Media Streams, Silero VAD, flite)', () => {
  it('the caller is transcribed by pocketsphinx and answered (the mock agent repeats it)', async () => {
    // The mock agent, not the local one: pocketsphinx misreads 8 kHz phone speech ("What is the
    // time?" came out as "but upon", "not that hard"), so the words are not asserted, only that
    // the words it heard are answered.
    demo = await startPhoneDemo({
      OPENMIC_AGENT: 'mock',
      OPENMIC_STT: 'local',
      OPENMIC_TTS: 'local',
    })
    const { call, streamUrl } = await placeCall(demo)
    expect(streamUrl).toBe(`${PUBLIC_URL.replace('https', 'wss')}/twilio/stream`)
    await storedUntil((items) => expect(assistants(items)).toHaveLength(1))
    const before = call.heardMs
    call.say(await speakPcm('Can you help me with my order?'))
    const items = await storedUntil((items) => expect(assistants(items)).toHaveLength(2))
    const [user] = users(items)
    expect(user!.content).toMatch(/\w/)
    expect(assistants(items)[1]).toEqual({
      role: 'assistant',
      content: `Turn 1: you said ${user!.content as string}.`,
    })
    expectSpokenAnswer(call, before, demo.spokenMs[1]!)
    expect(call.protocolErrors).toEqual([])
  }, 60_000)

  it('is answered by the local agent, talked over, coughed over, and hung up after the goodbye', async () => {
    // What the caller says, as the STT would hear it: the rest of the call is real
    const words = [
      'What time is it?',
      'Can you help me with my order?',
      'What time is it?',
      'Can you help me with my order?',
      '', // "Ahem.": speech to the VAD, no words
      'Goodbye.',
    ]
    demo = await startPhoneDemo(
      { OPENMIC_AGENT: 'local', OPENMIC_TTS: 'local' },
      { createSTT: async () => new MockSTT({ utterances: words }) }
    )
    const { call, record } = await placeCall(demo)
    const spoken = demo.spokenMs

    // The greeting, heard to its end
    await storedUntil((items) =>
      expect(assistants(items)).toEqual([{ role: 'assistant', content: LOCAL_AGENT_GREETING }])
    )

    // Flite speech, sent as μ-law by the fake, ends a turn; the agent answers through its tool
    let before = call.heardMs
    call.say(await speakPcm(words[0]!))
    let items = await storedUntil((items) => expect(assistants(items)).toHaveLength(2))
    expect(users(items)[0]!.content).toBe(words[0])
    expect(assistants(items)[1]!.content).toMatch(/^It is \d{1,2}:\d{2} [AP]M\.$/)
    expect(assistants(items)[1]!.metadata).toBeUndefined() // heard whole
    expectSpokenAnswer(call, before, spoken[1]!)

    // Barge-in: the answer talked over stops within a frame of the `clear`...
    before = call.heardMs
    call.say(await speakPcm(words[1]!))
    await call.waitFor(() => call.heardMs - before > 1500, 20_000, 'the long answer')
    const bargeIn = call.say(await speakPcm(words[2]!))
    const clearOf = (utterance: CallerUtterance) =>
      call.cleared.find((clear) => clear.atMs >= utterance.startMs)
    await call.waitFor(() => clearOf(bargeIn) !== undefined, 10_000, 'a clear')
    const clear = clearOf(bargeIn)!
    items = await storedUntil((items) => expect(assistants(items)).toHaveLength(4))
    expect(call.heard.filter((f) => f.atMs >= clear.atMs && f.atMs < clear.atMs + 500)).toEqual([])
    // ... and the conversation keeps the words of it that were heard, cut at a word: as far as
    // the server reckoned Twilio played it, which is what the phone played when the clear came (in
    // bytes, not clock readings) to a mark's spacing and a frame
    const [cut, timeAgain] = assistants(items).slice(2)
    const heardOfIt = clear.heardMs - before
    expect(cut!.metadata).toMatchObject({ interrupted: true, fullContent: DONT_KNOW })
    const { heardMs } = cut!.metadata as { heardMs: number }
    expect(Math.abs(heardMs - heardOfIt)).toBeLessThanOrEqual(MARK_SLACK_MS)
    const content = cut!.content as string
    expect(content.length).toBeGreaterThan(0)
    // Exactly the words that end within `heardMs` (the server spreads the text evenly over the audio)
    expect(content).toBe(DONT_KNOW.slice(0, heardChars(DONT_KNOW, heardMs, spoken[2]!)))
    expect(timeAgain!.content).toMatch(/^It is /)

    // A cough: the line is cleared while it lasts, then the answer plays on, heard once and whole
    await storedUntil(() => expect(call.queuedMs).toBe(0))
    before = call.heardMs
    call.say(await speakPcm(words[3]!))
    await call.waitFor(() => call.heardMs - before > 1000, 20_000, 'the long answer again')
    const cough = call.say(await speakPcm('Ahem.'))
    await call.waitFor(() => clearOf(cough) !== undefined, 10_000, "the cough's clear")
    items = await storedUntil((items) => expect(assistants(items)).toHaveLength(5))
    expect(assistants(items)[4]).toEqual({ role: 'assistant', content: DONT_KNOW })
    // Heard once: the line resumes where the server reckoned playback stopped, exact at each mark
    // and estimated on the clock between two (100 ms apart), so a busy machine may replay or skip
    // up to one mark's spacing, never a second copy of the answer
    expect(Math.abs(call.heardMs - before - spoken[4]!)).toBeLessThanOrEqual(MARK_SLACK_MS)

    // "Goodbye": heard to its end, then the call is hung up through the REST API
    before = call.heardMs
    call.say(await speakPcm(words[5]!))
    const end = await within(call.closed, 20_000, 'the hang-up').catch(async (error: Error) => {
      // What the line was doing, to tell a lost goodbye from a hang-up never asked for
      const state = {
        stored: (await demo!.stored()).slice(-4),
        status: record.status,
        requests: demo!.api.requests.map((request) => `${request.method} ${request.path}`),
        queuedMs: call.queuedMs,
        goodbyeHeardMs: call.heardMs - before,
        goodbyeSpokenMs: spoken[5],
        lastFrames: call.received.slice(-3).map((frame) => frame.data.slice(0, 40)),
      }
      throw new Error(`${error.message}: ${JSON.stringify(state)}`)
    })
    expect(end.by).toBe('stop') // Twilio ended the stream: the call was hung up
    expect(record.status).toBe('completed')
    expect(record.updates).toEqual([{ Status: 'completed' }])
    expect(call.hangUps).toEqual([expect.objectContaining({ by: 'api' })])
    expect(spoken).toHaveLength(6)
    expectSpokenAnswer(call, before, spoken[5]!)
    expect(call.queuedMs).toBe(0)
    expect(call.protocolErrors).toEqual([])
  }, 120_000)
})
