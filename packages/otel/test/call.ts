// One simulated call (virtual time) with its server instrumented.
import { MockAgent, type Agent, type RealtimeAgent, type STT, type TTS } from '@openmic/core'
import type { MicdropTurnMetrics } from '@openmic/core/protocol'
import { MicdropServer, type MicdropServerOptions } from '@openmic/server'
import { simulateCall, type CallScript } from '@openmic/testing/simulator'
import { expect } from 'vitest'
import { instrumentCall, type InstrumentCallOptions } from '../src/index.js'

export interface CallSetup {
  agent?: () => Agent
  /** A speech-to-speech model as the call's agent, STT and TTS (in place of the three). */
  realtime?: () => RealtimeAgent
  /** Wraps the simulator's STT or TTS (e.g. in a fallback). */
  stt?: (simulated: STT) => STT
  tts?: (simulated: TTS) => TTS
  server?: Partial<MicdropServerOptions>
  /** Called with the server once instrumented. */
  onServer?: (server: MicdropServer) => void
}

/** Runs `script` with its server instrumented; the `Metrics` events of its turns. */
export async function instrumentedCall(
  script: CallScript,
  options: InstrumentCallOptions,
  setup: CallSetup = {}
) {
  const turns: MicdropTurnMetrics[] = []
  const result = await simulateCall(script, {
    server: (socket, parts) => {
      const { stt, tts, ...common } = parts
      const voice = setup.realtime
        ? { realtime: setup.realtime() }
        : {
            agent: setup.agent?.() ?? new MockAgent({ answers: ['It is noon.'] }),
            stt: setup.stt?.(stt) ?? stt,
            tts: setup.tts?.(tts) ?? tts,
          }
      const server = new MicdropServer(socket, { ...common, ...voice, ...setup.server })
      instrumentCall(server, { conversationId: parts.conversationId, ...options })
      server.on('Metrics', (metrics) => turns.push(metrics))
      setup.onServer?.(server)
      return server
    },
  })
  // The simulator's checks follow each answer by the tags its TTS puts in the audio, which a
  // realtime model's own audio does not carry: they hold for a pipeline only
  if (!setup.realtime) expect(result.violations).toEqual([])
  return { turns, result }
}

export const STT_MS = 150
export const MODEL_MS = 300
export const TTS_MS = 200

/** One question, transcribed in 150 ms, its answer's first audio 200 ms after its first text. */
export const askTheTime: CallScript = {
  tts: { firstAudioDelayMs: TTS_MS },
  steps: [
    { say: 'What time is it', stt: { pieces: [{ text: 'What time is it?', afterMs: STT_MS }] } },
    { waitFor: 'quiet' },
  ],
}
