import {
  EnergyVAD,
  Logger,
  MockAgent,
  MockSTT,
  type MicdropConversationMessage,
} from '@openmic/core'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { MicdropServer } from '../src/index.js'
import { TaggedTTS, tagOf } from './doubles.js'
import { closeAfterEach, finalItems, startMockCall, until } from './harness.js'
import { silence, speech, stream } from './vad-audio.js'

const cleanup = closeAfterEach()

const vad = () => new EnergyVAD({ minSpeechMs: 100, silenceMs: 300 })

describe('MicdropServer with a server-side VAD', () => {
  it('takes a turn from the audio alone, with the speech from its onset', async () => {
    const { client, server } = await startMockCall(cleanup, () => ({
      vad: vad(),
      stt: new MockSTT({ utterances: ['What time is it?'] }),
      agent: new MockAgent({ answers: ['It is noon.'] }),
    }))
    await client.waitFor((c) => c.count('SkipAnswer') === 1) // no first message
    let userMs = 0
    server.on('UserAudio', (audio) => (userMs += audio.length / 32))
    stream(client, silence(500), speech(800), silence(600))
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(server.agent.conversation.slice(1)).toEqual([
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: 'It is noon.' },
    ])
    // The start of speech it heard is settled as any barge-in (nothing played to drop)
    expect(client.flow.slice(0, 3)).toEqual(['SkipAnswer', 'Interrupt', 'Message:user'])
    expect(client.count('audio')).toBeGreaterThan(0)
    // The STT heard the speech with a little before it (the pre-roll) and the pause that ended
    // it, not the silence before it nor all of the one after
    expect(userMs).toBeGreaterThanOrEqual(800 + 100)
    expect(userMs).toBeLessThan(800 + 500 + 600)
  })

  for (const captions of [false, true]) {
    it(`a barge-in it hears cuts the answer and tells the client with Interrupt (${captions ? 'openmic' : 'Micdrop'} client)`, async () => {
      const greeting =
        'Hello there, this is a rather long greeting that goes on for several seconds of audio.'
      const tts = new TaggedTTS({ msPerChar: 50, chunkMs: 100, chunkDelayMs: 20 })
      let server!: MicdropServer
      const started = await startMockCall(
        cleanup,
        () => ({
          vad: vad(),
          tts,
          firstMessage: greeting,
          stt: new MockSTT({ utterances: ['Stop.'] }),
          agent: new MockAgent({ answers: ['Okay.'] }),
        }),
        { captions }
      )
      const { client } = started
      server = started.server
      const finals = finalItems(server)
      if (captions) {
        await client.waitFor((c) => c.texts('Hello').length === 1)
        // The client may not pause: it cannot tell when the server hears the user
        expect(client.texts('Hello')[0]).toMatchObject({ hello: { resume: false } })
      }
      await client.waitFor((c) => c.count('audio') >= 1)
      // About a second of the greeting plays (by the server's reckoning): words were heard
      await sleep(1000)
      stream(client, speech(600), silence(500))
      await client.waitFor((c) => c.log.includes('Interrupt'))
      const assistant = () =>
        finals.filter((item): item is MicdropConversationMessage => item.role === 'assistant')
      // Final once heard to its end (or cut)
      await until(() => assistant().length === 2)
      await client.settle()
      const [cut, okay] = assistant()
      expect(cut!.metadata).toMatchObject({ interrupted: true, fullContent: greeting })
      expect(greeting.startsWith(cut!.content as string)).toBe(true)
      expect((cut!.content as string).length).toBeLessThan(greeting.length)
      expect(okay!.content).toBe('Okay.')
      // None of the greeting's audio comes after the Interrupt; the answer's does
      const interrupt = client.received.findIndex(
        (item) => item.kind === 'text' && item.message.type === 'Interrupt'
      )
      const after = client.received
        .slice(interrupt)
        .flatMap((item) => (item.kind === 'audio' ? [tagOf(item.audio)] : []))
      expect(after.length).toBeGreaterThan(0)
      expect(after.every((tag) => tag === 2)).toBe(true)
      expect(client.count('Interrupt')).toBe(1)
    })
  }

  it('a Mute ends the utterance the VAD opened: no answer, even once the VAD hears its end', async () => {
    const { client, server } = await startMockCall(cleanup, () => ({
      vad: vad(),
      stt: new MockSTT({ utterances: ['One.', 'Two.'] }),
      agent: new MockAgent({ answers: ['Answered.'] }),
    }))
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    stream(client, speech(400))
    // Mute is handled after the audio before it: the VAD heard the speech start
    client.send('Mute')
    stream(client, speech(200), silence(600))
    await client.waitFor((c) => c.count('Message:user') === 1)
    await client.settle(400)
    expect(client.count('Message:assistant')).toBe(0)
    expect(client.count('audio')).toBe(0)
    // The next speech is a turn, answered
    stream(client, speech(500), silence(500))
    await client.waitFor((c) => c.count('Message:assistant') === 1)
    expect(server.agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'Answered.' })
  })

  it("ignores the client's StartSpeaking, StopSpeaking and Played, saying so once", async () => {
    const lines: string[] = []
    const logger = new Logger('test', (_prefix, ...message) => lines.push(message.join(' ')))
    const { client, server } = await startMockCall(cleanup, () => ({
      vad: vad(),
      logger,
      stt: new MockSTT({ utterances: ['Hello.'] }),
    }))
    await client.waitFor((c) => c.count('SkipAnswer') === 1)
    for (let i = 0; i < 2; i++) {
      client.send('StartSpeaking')
      stream(client, silence(300))
      client.send('Played {"ms":0}')
      client.send('StopSpeaking')
    }
    await client.settle(150)
    // No turn: the VAD heard none
    expect(client.flow).toEqual(['SkipAnswer'])
    expect(server.agent.conversation.slice(1)).toEqual([])
    for (const frame of ['StartSpeaking', 'StopSpeaking', 'Played']) {
      expect(
        lines.filter((line) => line.startsWith(`Ignored ${frame} from the client`))
      ).toHaveLength(1)
    }
    // The call goes on: speech is a turn
    stream(client, speech(600), silence(500))
    await client.waitFor((c) => c.count('Message:user') === 1)
    expect(server.agent.conversation[1]).toEqual({ role: 'user', content: 'Hello.' })
  })
})
