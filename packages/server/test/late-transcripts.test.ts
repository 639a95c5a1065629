import { MockAgent, MockSTT } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import type { MicdropServerOptions } from '../src/index.js'
import { TaggedTTS, tagOf } from './doubles.js'
import { closeAfterEach, startMockCall, type TestClient } from './harness.js'

const cleanup = closeAfterEach()

/** Audio bytes MockTTS makes for a text: 10 ms per character, 16 kHz PCM16. */
const bytesOf = (text: string) => text.length * 10 * 32

/** The `speak()` number of every audio frame the client received, in order. */
const audioTags = (client: TestClient) =>
  client.received.flatMap((item) => (item.kind === 'audio' ? [tagOf(item.audio)] : []))

/** A call whose client is openmic's (it takes each answer's `Message` once heard). */
async function call(options: Partial<MicdropServerOptions>) {
  const tts = new TaggedTTS(options.tts ? undefined : { chunkMs: 20 })
  const started = await startMockCall(
    cleanup,
    () => ({ agent: new MockAgent(), tts, ...options }),
    { captions: true }
  )
  await started.client.waitFor((c) => c.count('SkipAnswer') === 1)
  return { ...started, tts: started.server.tts as TaggedTTS }
}

describe('a transcript in two pieces, 100 ms apart after StopSpeaking (MockSTT delayMs)', () => {
  for (const signals of [true, false]) {
    it(`${signals ? 'with' : 'without'} TranscriptEnd: one message, one answer, no audio of a discarded answer`, async () => {
      const { client, server, tts } = await call({
        stt: new MockSTT({
          utterances: [{ transcripts: ['Book a table', 'for two.'], delayMs: 100 }],
          transcriptEnd: signals,
        }),
        // The second piece comes 100 ms after the first: well within the grace, however busy
        // the machine is
        transcriptGraceMs: 1000,
      })
      client.utterance()
      await client.waitFor((c) => c.count('Message:assistant') === 1)
      await client.settle(150)
      const answer = 'You said: "Book a table for two."'
      // Without the signal the first piece is added and answered at once, its answer's output
      // held; the second piece replaces the message and restarts the answer before anything
      // of it went out
      const joined = signals ? [] : ['CancelLastUserMessage', 'Message:user']
      expect(client.flow).toEqual([
        'SkipAnswer',
        'Interrupt', // the barge-in settled: nothing was playing
        'Message:user',
        ...joined,
        'audio',
        'Message:assistant',
      ])
      expect(server.agent.conversation.slice(1)).toEqual([
        { role: 'user', content: 'Book a table for two.' },
        { role: 'assistant', content: answer },
      ])
      expect(client.conversation).toEqual(server.agent.conversation.slice(1))
      // Every frame sent belongs to the one answer, and all of it was sent.
      const speaks = signals ? 1 : 2
      expect(tts.calls).toBe(speaks)
      expect(new Set(audioTags(client))).toEqual(new Set([speaks]))
      expect(client.audioBytes()).toBe(bytesOf(answer))
    })
  }

  it('an STT that signals is answered at TranscriptEnd, without the grace', async () => {
    const { client } = await call({
      stt: new MockSTT({
        utterances: [{ transcripts: ['Hello', 'there.'], delayMs: 100 }],
        transcriptEnd: true,
      }),
      transcriptGraceMs: 5000,
    })
    const stoppedAt = performance.now()
    client.utterance()
    await client.waitFor((c) => c.count('audio') > 0)
    expect(performance.now() - stoppedAt).toBeLessThan(1000)
  })
})

describe('a piece later than the grace (an STT that cannot signal)', () => {
  it('before anything of the answer was sent: the answer restarts with it, only the new one is heard', async () => {
    const { client, server, tts } = await call({
      stt: new MockSTT({
        utterances: [{ transcripts: ['Book a table', 'for two.'], delayMs: 100 }],
        transcriptEnd: false,
      }),
      // The late piece comes 100 ms after the first: long before the answer's first word
      agent: new MockAgent({ firstWordDelayMs: 1000 }),
      transcriptGraceMs: 30,
    })
    const answer = 'You said: "Book a table for two."'
    client.utterance()
    // Its message goes once its audio has played
    await client.waitFor((c) => c.audioBytes() >= bytesOf(answer))
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle(150)
    expect(tts.calls).toBe(2)
    expect(new Set(audioTags(client))).toEqual(new Set([2]))
    expect(client.audioBytes()).toBe(bytesOf(answer))
    // One turn, one message: the late piece joined it
    expect(server.agent.conversation.slice(1)).toEqual([
      { role: 'user', content: 'Book a table for two.' },
      { role: 'assistant', content: answer },
    ])
    expect(client.conversation).toEqual(server.agent.conversation.slice(1))
    expect(client.count('Message:assistant')).toBe(1)
  })

  it('once the answer is heard: it plays to its end, then the piece is answered', async () => {
    const { client, server } = await call({
      stt: new MockSTT({
        // The late piece comes 500 ms after the first, long after the answer started playing
        utterances: [{ transcripts: ['Book a table', 'for two.'], delayMs: 500 }],
        transcriptEnd: false,
      }),
      tts: new TaggedTTS({ chunkMs: 20, chunkDelayMs: 10 }),
      transcriptGraceMs: 30,
    })
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 2)
    await client.settle(150)
    const first = 'You said: "Book a table"'
    const second = 'You said: "for two."'
    const tags = audioTags(client)
    expect(tags).toEqual([...tags].sort((a, b) => a - b))
    const bytesOfTag = (tag: number) =>
      client.received.reduce(
        (sum, item) =>
          sum + (item.kind === 'audio' && tagOf(item.audio) === tag ? item.audio.length : 0),
        0
      )
    expect(bytesOfTag(1)).toBe(bytesOf(first))
    expect(bytesOfTag(2)).toBe(bytesOf(second))
    expect(server.agent.conversation.slice(1)).toEqual([
      { role: 'user', content: 'Book a table' },
      { role: 'assistant', content: first },
      { role: 'user', content: 'for two.' },
      { role: 'assistant', content: second },
    ])
    expect(client.count('SkipAnswer')).toBe(1)
  })
})

/** An STT that claims to signal `TranscriptEnd` but never sends it (a buggy provider). */
class NoEndSTT extends MockSTT {
  override emit(event: any, ...args: any[]): boolean {
    return event === 'TranscriptEnd' ? false : super.emit(event, ...args)
  }
}

describe('an STT that never completes its transcript', () => {
  it('what it said is answered, once, after transcriptTimeoutMs', async () => {
    const { client, server, tts } = await call({
      stt: new NoEndSTT({ utterances: [{ transcripts: ['Book a table', 'for two.'] }] }),
      transcriptTimeoutMs: 200,
    })
    client.utterance()
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    await client.settle(150)
    expect(client.flow).toEqual([
      'SkipAnswer',
      'Interrupt',
      'Message:user',
      'audio',
      'Message:assistant',
    ])
    expect(server.agent.conversation.at(1)).toEqual({
      role: 'user',
      content: 'Book a table for two.',
    })
    expect(tts.calls).toBe(1)
  })
})
