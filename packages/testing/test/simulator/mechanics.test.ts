import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { MicdropServer } from '@openmic/server'
import { describe, expect, it } from 'vitest'
import {
  randomScript,
  simulateCall,
  type CallScript,
  type SimulationResult,
} from '../../src/simulator/index.js'
import { answerHello, broken, interceptSend } from './helpers.js'

/** When the first timeline entry of `who` matching `what` happened (virtual ms). */
function at(result: SimulationResult, who: string, what: RegExp): number | undefined {
  return result.timeline.find((entry) => entry.who === who && what.test(entry.what))?.atMs
}

describe('the simulator', () => {
  it('runs the delays of the agent, the STT and the TTS on virtual time', async () => {
    // Over a minute of delays: on the wall clock this test would time out.
    const result = await simulateCall({
      latencyMs: 0,
      server: { transcriptTimeoutMs: 60_000 },
      agent: { answers: ['Here you are.'], firstWordDelayMs: 8_000 },
      tts: { firstAudioDelayMs: 30_000 },
      steps: [
        { say: 'hi there', ms: 500, stt: { pieces: [{ text: 'hi there', afterMs: 20_000 }] } },
        { waitFor: 'quiet', maxMs: 120_000 },
      ],
    })
    expect(at(result, 'stt', /Transcript "hi there"/)).toBe(20_500)
    expect(at(result, 'agent', /saves assistant/)).toBe(28_500)
    expect(at(result, 'server', /→ audio of answer 1/)).toBe(58_500)
    expect(result.answers[0]).toMatchObject({ text: 'Here you are.', playedMs: 130 })
  })

  it("runs core's MockSTT, MockAgent and MockTTS on virtual time in a server of one's own", async () => {
    const result = await simulateCall(
      {
        latencyMs: 0,
        steps: [
          { say: 'hello', ms: 300 },
          { waitFor: 'quiet', maxMs: 60_000 },
        ],
      },
      {
        server: (socket, parts) =>
          new MicdropServer(socket, {
            agent: new MockAgent({ answers: ['One two three.'], wordDelayMs: 1_000 }),
            stt: new MockSTT({ utterances: [{ transcripts: 'hello', delayMs: 20_000 }] }),
            tts: new MockTTS({ chunkMs: 10, chunkDelayMs: 5_000 }),
            transcriptTimeoutMs: 60_000,
            logger: parts.logger,
          }),
      }
    )
    // MockTTS's audio is not tagged: only the frames' times are looked at.
    const audio = result.timeline.filter(
      (entry) => entry.who === 'server' && /→ audio/.test(entry.what)
    )
    expect(at(result, 'server', /→ Message \{"role":"user"/)).toBe(20_300)
    expect(audio[0]!.atMs).toBe(20_300)
    expect(audio.at(-1)!.atMs).toBeGreaterThanOrEqual(20_300 + 2_000 + 5_000)
  })

  it('delivers every frame latencyMs after it was sent, in order', async () => {
    const result = await simulateCall({
      latencyMs: 150,
      agent: { answers: ['Fine, thanks.'] },
      steps: [{ say: 'how are you', ms: 900 }, { waitFor: 'quiet' }],
    })
    expect(at(result, 'user', /stops speaking/)).toBe(900)
    expect(at(result, 'server', /← StopSpeaking/)).toBe(1_050)
    const sent = at(result, 'server', /→ Message \{"role":"user"/)!
    expect(sent).toBe(1_050)
    expect(at(result, 'client', /← Message \{"role":"user"/)).toBe(sent + 150)
    expect(at(result, 'client', /← audio of answer 1/)).toBe(
      at(result, 'server', /→ audio of answer 1/)! + 150
    )
    // Played from its arrival, after the 60 ms prebuffer.
    const arrived = at(result, 'client', /← audio of answer 1/)!
    expect(at(result, 'client', new RegExp(`plays answer 1 from ${arrived + 60} ms`))).toBe(arrived)
  })

  it('the openmic client pauses at a cough and plays on at Resume (with a server that allows it)', async () => {
    const script: CallScript = {
      client: 'openmic',
      agent: { answers: ['Once upon a time there was a very long story to tell you.'] },
      tts: { chunkMs: 50, chunkDelayMs: 50 },
      steps: [
        { say: 'tell me a story', ms: 800 },
        { waitFor: 'speech', thenMs: 200 },
        { cough: 250 },
        { waitFor: 'quiet' },
      ],
    }
    const result = await simulateCall(
      script,
      broken(script, (_server, socket) => answerHello(socket))
    )
    const paused = at(result, 'client', /pauses playback/)!
    expect(paused).toBeDefined()
    expect(at(result, 'server', /← Played \{"ms":\d+,"paused":true\}/)).toBe(paused + 20)
    const resumed = at(result, 'server', /→ Resume/)!
    expect(resumed).toBeGreaterThan(paused)
    expect(at(result, 'client', /resumes playback/)).toBe(resumed + 20)
    // Nothing of the answer was lost: the whole of it played.
    expect(result.answers[0]!.playedMs).toBe(result.answers[0]!.audioMs)
  })

  it('the openmic client shows each caption once playback reaches it, and drops the ones it cut', async () => {
    const script: CallScript = {
      client: 'openmic',
      latencyMs: 0,
      prebufferMs: 0,
      agent: { answers: ['Answer one two three four five six seven.'] },
      steps: [
        { say: 'go', ms: 300 },
        { waitFor: 'speech', thenMs: 250 },
        { say: 'stop', ms: 300 },
      ],
    }
    const result = await simulateCall(
      script,
      broken(script, (server, socket) => {
        server.once('AssistantAudio', () => {
          socket.send('Caption {"text":"Answer","atMs":60}')
          socket.send('Caption {"text":" one","atMs":100}')
          socket.send('Caption {"text":" six seven.","atMs":410}')
        })
      })
    )
    const playsFrom = at(result, 'client', /plays answer 1/)!
    expect(at(result, 'client', /shows caption "Answer"/)).toBe(playsFrom + 60)
    expect(at(result, 'client', /shows caption " one"/)).toBe(playsFrom + 100)
    // Cut at 250 ms, before 410 ms: never shown.
    expect(at(result, 'client', /shows caption " six seven\."/)).toBeUndefined()
  })

  it('the Micdrop client ignores extension frames', async () => {
    const script: CallScript = {
      client: 'micdrop',
      agent: { answers: ['Fine.'] },
      steps: [{ say: 'hi' }, { waitFor: 'quiet' }],
    }
    const result = await simulateCall(
      script,
      broken(script, (server, socket) => {
        answerHello(socket)
        server.once('AssistantAudio', () => socket.send('Caption {"text":"Fine.","atMs":10}'))
      })
    )
    expect(at(result, 'server', /← Hello/)).toBeUndefined()
    expect(at(result, 'client', /shows caption/)).toBeUndefined()
  })

  it('replays a script exactly: the same timeline, the same findings', async () => {
    for (const seed of [3, 17, 40]) {
      const script = randomScript(seed)
      const first = await simulateCall(script)
      const again = await simulateCall(JSON.parse(JSON.stringify(script)) as CallScript)
      expect(again.timeline).toEqual(first.timeline)
      expect(again.violations).toEqual(first.violations)
    }
  })

  it('runs one simulation at a time: calls made together are queued', async () => {
    const script: CallScript = {
      agent: { answers: ['Yes.'] },
      steps: [{ say: 'hi' }, { waitFor: 'quiet' }],
    }
    const [a, b] = await Promise.all([simulateCall(script), simulateCall(script)])
    expect(b.timeline).toEqual(a.timeline)
  })

  it('intercepting the socket sees every frame the server sends', async () => {
    const script: CallScript = {
      agent: { answers: ['Yes.'] },
      steps: [{ say: 'hi' }, { waitFor: 'quiet' }],
    }
    const sent: string[] = []
    await simulateCall(
      script,
      broken(script, (_server, socket) =>
        interceptSend(socket, (data, deliver) => {
          if (typeof data === 'string') sent.push(data.split(' ')[0]!)
          deliver()
        })
      )
    )
    // The openmic client's Hello is answered; its StartSpeaking is settled (nothing was playing)
    expect(sent).toEqual(['SkipAnswer', 'Hello', 'Interrupt', 'Message', 'Caption', 'Message'])
  })
})
