// A phone call whose voice is a speech-to-speech model: TwilioServer given `realtime` (core's
// MockRealtime behind a RealtimeAgent), the caller played by @openmic/testing's fake Twilio call.
import type { AddressInfo } from 'node:net'
import {
  EnergyVAD,
  MockRealtime,
  RealtimeAgent,
  type MicdropConversationItem,
  type MicdropConversationMessage,
} from '@openmic/core'
import { FakeTwilioCall } from '@openmic/testing/twilio'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import { TwilioServer } from '../src/index.js'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** PCM16 16 kHz: `ms` of a loud tone, the caller's "voice" (heard by EnergyVAD). */
function voice(ms: number): Buffer {
  const pcm = Buffer.alloc(ms * 32)
  for (let i = 0; i < ms * 16; i++) {
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / 16000)), i * 2)
  }
  return pcm
}

const STORY = 'Once upon a time a small fox lived in a quiet green forest.'

async function phoneCall(model: MockRealtime) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', resolve))
  cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())))
  const finals: MicdropConversationItem[] = []
  wss.on('connection', (socket) => {
    const server = new TwilioServer(socket, {
      realtime: new RealtimeAgent({ model, systemPrompt: 'You tell stories.' }),
      vad: new EnergyVAD({ minSpeechMs: 100, silenceMs: 300 }),
    })
    server.on('Message', (item) => finals.push(item))
  })
  const call = await FakeTwilioCall.connect({
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
  })
  cleanups.push(() => call.drop())
  return { call, finals }
}

describe('TwilioServer with a realtime voice', () => {
  it("answers the caller with the model's speech, and a barge-in truncates it in the model", async () => {
    const model = new MockRealtime({
      transcripts: ['Tell me a story.', 'Stop.'],
      answers: [STORY, 'Okay.'],
      msPerChar: 60,
    })
    const { call, finals } = await phoneCall(model)
    call.say(voice(600))
    await call.waitFor(() => call.heardMs > 1000, 10_000, 'a second of the story')
    call.say(voice(600))
    const answers = () =>
      finals.filter((item): item is MicdropConversationMessage => item.role === 'assistant')
    await call.waitFor(() => answers().length === 2, 10_000, 'the answer to "Stop."')
    const cut = answers()[0]!
    expect(cut.metadata).toMatchObject({ interrupted: true, fullContent: STORY })
    expect(STORY.startsWith(cut.content)).toBe(true)
    expect(call.cleared.length).toBeGreaterThan(0)
    // The model remembers the story as far as the caller heard it
    const spoken = model.items.find((item) => item.source === 'speech')!
    expect(spoken.truncatedAtMs).toBe(cut.metadata!.heardMs)
    expect(call.protocolErrors).toEqual([])
  })
})
