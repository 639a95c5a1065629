// How a call hears its agent, STT and TTS: parts built on core's classes tell the call their events
// directly (no listener records on them, which every idle call would hold); any other part is
// heard through listeners. Either way the call lets go of them when it ends.
import { Readable } from 'node:stream'
import { MockTTS, type TTS } from '@openmic/core'
import { EventEmitter } from 'eventemitter3'
import { describe, expect, it } from 'vitest'
import type { MicdropServer } from '../src/index.js'
import { closeAfterEach, startMockCall } from './harness.js'

const cleanup = closeAfterEach()
const CALL_SINK = Symbol.for('openmic.callSink')

function listeners(emitter: {
  eventNames(): (string | symbol)[]
  listenerCount(e: string | symbol): number
}) {
  return emitter.eventNames().reduce((sum, name) => sum + emitter.listenerCount(name), 0)
}
const sinkOf = (part: object) => (part as Record<symbol, unknown>)[CALL_SINK]

async function answerOnce(extra: Parameters<typeof startMockCall>[1] = () => ({})) {
  const { client, server } = await startMockCall(cleanup, extra)
  client.utterance()
  await client.waitFor((c) => c.count('Message:assistant') === 1 && c.audioBytes() > 0)
  return { client, server }
}

async function ended(server: MicdropServer, close: () => void) {
  const end = new Promise((resolve) => server.on('End', resolve))
  close()
  await end
}

/** A TTS of its own, on eventemitter3 but not on core's `TTS`: a 100 ms tone per text. */
class OwnTTS extends EventEmitter {
  speak(text: Readable) {
    text.on('data', () => this.emit('Audio', Buffer.alloc(3200, 1)))
    text.on('end', () => this.emit('AudioEnd'))
  }
  cancel() {}
  destroy() {
    this.removeAllListeners()
  }
}

describe("a call's parts", () => {
  it('are heard without a listener on them, and let go at the end of the call', async () => {
    const { client, server } = await answerOnce()
    for (const part of [server.agent, server.stt, server.tts]) {
      expect(listeners(part)).toBe(0)
      expect(sinkOf(part)).toBeDefined()
    }
    await ended(server, () => client.close())
    for (const part of [server.agent, server.stt, server.tts]) expect(sinkOf(part)).toBeUndefined()
  })

  it('a part not built on core (an eventemitter3 TTS of its own) is heard through listeners', async () => {
    const tts = new OwnTTS()
    const { client, server } = await answerOnce(() => ({ tts: tts as unknown as TTS }))
    expect(listeners(tts)).toBeGreaterThan(0)
    await ended(server, () => client.close())
    expect(listeners(tts)).toBe(0)
  })

  it('a part another call already hears is heard through listeners, and left to that call', async () => {
    const tts = new MockTTS()
    const other = { partEvent() {} }
    ;(tts as unknown as Record<symbol, unknown>)[CALL_SINK] = other
    const { client, server } = await answerOnce(() => ({ tts }))
    expect(listeners(tts)).toBeGreaterThan(0)
    await ended(server, () => client.close())
    expect(sinkOf(tts)).toBe(other)
    expect(listeners(tts)).toBe(0)
  })
})
