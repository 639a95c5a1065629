import { EnergyVAD, MockAgent } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { RecordingSTT, TaggedTTS, tagOf } from './doubles.js'
import { closeAfterEach, startMockCall, until } from './harness.js'
import { silence, speech, stream } from './vad-audio.js'

// A server-side VAD that reports pauses (EnergyVAD with pauseMs: deterministic, 20 ms windows),
// on a real MicdropServer and WebSocket: the audio the STT gets, and preemptive answers.

const cleanup = closeAfterEach()

/** Speech starts after 100 ms of voice, a pause is 200 ms of quiet, the end 400 ms. */
const pausingVad = () => new EnergyVAD({ minSpeechMs: 100, silenceMs: 400, pauseMs: 200 })

/**
 * Speech 500–1100 ms, a 300 ms pause (the VAD hears it at 1300), speech again 1400–1800 (heard
 * at once), then quiet: the VAD hears the end at 2200.
 */
const PAUSED_TURN = [silence(500), speech(600), silence(300), speech(400), silence(600)]

/** Each utterance the STT got, as the span of `audio` (ms) it must be, byte for byte. */
function expectSpans(utterances: Buffer[], audio: Buffer, spans: Array<[number, number]>) {
  expect(utterances.map((heard) => heard.length / 32)).toEqual(spans.map(([from, to]) => to - from))
  spans.forEach(([from, to], i) => {
    expect(utterances[i]!.equals(audio.subarray(from * 32, to * 32)), `utterance ${i}`).toBe(true)
  })
}

describe('MicdropServer with a server-side VAD that reports pauses', () => {
  it('without preemptive answers: one utterance, each byte of the turn once (pre-roll to end)', async () => {
    const stt = new RecordingSTT({ utterances: ['Book a table for two.'] })
    const { client, server } = await startMockCall(cleanup, () => ({ vad: pausingVad(), stt }))
    await client.waitFor((c) => c.count('SkipAnswer') === 1) // no first message
    const audio = Buffer.concat(PAUSED_TURN)
    stream(client, audio)
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    // From 200 ms before the speech to where the VAD heard its end; the pause changes nothing
    expectSpans(stt.utterances, audio, [[300, 2200]])
    expect(server.agent.conversation.slice(1)).toEqual([
      { role: 'user', content: 'Book a table for two.' },
      { role: 'assistant', content: 'You said: "Book a table for two."' },
    ])
  })

  it('with preemptive answers: the utterance ends at the pause and the next one starts there', async () => {
    const stt = new RecordingSTT({ utterances: ['Book a table', 'for two.'] })
    const { client } = await startMockCall(cleanup, () => ({
      vad: pausingVad(),
      stt,
      preemptive: true,
    }))
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    const audio = Buffer.concat(PAUSED_TURN)
    stream(client, audio)
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    // The first utterance is what came before the pause was heard; the second starts there
    // (the speech came back within 200 ms of it: its onset is in it) and ends at the next pause
    // (heard at 2000, the end at 2200): nothing is sent twice
    expectSpans(stt.utterances, audio, [
      [300, 1300],
      [1300, 2000],
    ])
  })

  it('answers at the pause, holds the answer, and releases it once the end is heard', async () => {
    const tts = new TaggedTTS({ chunkMs: 100, chunkDelayMs: 5 })
    let produced = false
    tts.on('AudioEnd', () => (produced = true))
    const { client, server } = await startMockCall(cleanup, () => ({
      vad: pausingVad(),
      stt: new RecordingSTT({ utterances: ['What time is it?'] }),
      agent: new MockAgent({ answers: ['It is noon.'] }),
      tts,
      preemptive: true,
    }))
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    // Speech, then 300 ms of quiet: a pause (200 ms), not the end (400 ms)
    stream(client, silence(500), speech(600), silence(300))
    // The answer was made at the pause, its audio included
    await until(() => produced)
    await client.settle(150)
    // Held: the client saw only the settled start of speech, nothing of the turn or its answer
    expect(client.flow).toEqual(['SkipAnswer', 'Interrupt'])
    expect(server.agent.conversation.slice(1)).toEqual([
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: 'It is noon.' },
    ])
    // 100 ms more of quiet: the end of the turn
    stream(client, silence(100))
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(client.flow.slice(0, 4)).toEqual(['SkipAnswer', 'Interrupt', 'Message:user', 'audio'])
    // The very answer made at the pause: no second model call or TTS
    expect(tts.calls).toBe(1)
    expect(client.received.every((item) => item.kind !== 'audio' || tagOf(item.audio) === 1)).toBe(
      true
    )
  })

  it('drops the answer when the user goes on: one user message, one answer, none of the first heard', async () => {
    const tts = new TaggedTTS({ chunkMs: 100, chunkDelayMs: 5 })
    let produced = 0
    tts.on('AudioEnd', () => produced++)
    const { client, server } = await startMockCall(cleanup, () => ({
      vad: pausingVad(),
      stt: new RecordingSTT({ utterances: ['Book a table', 'for two.'] }),
      tts,
      preemptive: true,
    }))
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    stream(client, silence(500), speech(600), silence(300))
    // The answer to "Book a table" is made, and held
    await until(() => produced === 1)
    // The user goes on, then stops
    stream(client, speech(400), silence(500))
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle(150)
    const turn = [
      { role: 'user', content: 'Book a table for two.' },
      { role: 'assistant', content: 'You said: "Book a table for two."' },
    ]
    expect(client.conversation).toEqual(turn)
    expect(server.agent.conversation.slice(1)).toEqual(turn)
    // Nothing of the first answer, nor its user message taken back
    expect(client.flow.slice(0, 4)).toEqual(['SkipAnswer', 'Interrupt', 'Message:user', 'audio'])
    expect(client.count('Message:user')).toBe(1)
    expect(client.count('CancelLastUserMessage')).toBe(0)
    // Two answers were made; only the second was heard
    expect(tts.calls).toBe(2)
    const tags = client.received.flatMap((item) =>
      item.kind === 'audio' ? [tagOf(item.audio)] : []
    )
    expect(tags.length).toBeGreaterThan(0)
    expect(tags.every((tag) => tag === 2)).toBe(true)
  })
})
