import type { Counter, Histogram, Meter, UpDownCounter } from '@opentelemetry/api'

/**
 * Bucket bounds (ms) for voice latencies: tens of ms (STT, a fast TTS) to seconds (a slow model,
 * a whole turn).
 */
export const LATENCY_BUCKETS_MS: readonly number[] = Object.freeze([
  10, 25, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000,
])

/** Bucket bounds for token counts, as the GenAI conventions advise for `gen_ai.client.token.usage`. */
const TOKEN_BUCKETS: readonly number[] = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
]

/** The instruments of one meter, shared by every call instrumented with it. */
export interface CallInstruments {
  voiceToVoice: Histogram
  stt: Histogram
  modelFirstText: Histogram
  ttsFirstAudio: Histogram
  turnDuration: Histogram
  turns: Counter
  interruptions: Counter
  failures: Counter
  fallbacks: Counter
  tokenUsage: Histogram
  activeCalls: UpDownCounter
}

const byMeter = new WeakMap<Meter, CallInstruments>()

/** The instruments on `meter`, made once (instruments are meant to live as long as the meter). */
export function callInstruments(meter: Meter): CallInstruments {
  let instruments = byMeter.get(meter)
  if (!instruments) {
    instruments = createInstruments(meter)
    byMeter.set(meter, instruments)
  }
  return instruments
}

function createInstruments(meter: Meter): CallInstruments {
  const latency = (name: string, description: string) =>
    meter.createHistogram(name, {
      description,
      unit: 'ms',
      advice: { explicitBucketBoundaries: [...LATENCY_BUCKETS_MS] },
    })
  const counter = (name: string, description: string, unit: string) =>
    meter.createCounter(name, { description, unit })
  return {
    voiceToVoice: latency(
      'openmic.turn.voice_to_voice',
      'User stopped speaking (StopSpeaking) to the first audio of the answer sent'
    ),
    stt: latency('openmic.turn.stt', 'User stopped speaking to the final transcript'),
    modelFirstText: latency(
      'openmic.turn.model_first_text',
      'Answer requested to the first text of the agent (time to first token)'
    ),
    ttsFirstAudio: latency(
      'openmic.turn.tts_first_audio',
      'First text given to the TTS to its first audio'
    ),
    turnDuration: latency(
      'openmic.turn.duration',
      'User stopped speaking to the end of the answer production'
    ),
    turns: counter('openmic.turns', 'User turns, by outcome', '{turn}'),
    interruptions: counter(
      'openmic.interruptions',
      'Barge-ins over an answer: real (the answer was cut) or false (noise, it resumed)',
      '{interruption}'
    ),
    failures: counter(
      'openmic.failures',
      'Failures of the agent, STT, TTS or store, by part and provider',
      '{failure}'
    ),
    fallbacks: counter(
      'openmic.fallbacks',
      'Switches of a fallback agent, STT or TTS to its next provider',
      '{fallback}'
    ),
    tokenUsage: meter.createHistogram('gen_ai.client.token.usage', {
      description: 'Tokens used by each model call, as the provider reported them',
      unit: '{token}',
      advice: { explicitBucketBoundaries: [...TOKEN_BUCKETS] },
    }),
    activeCalls: meter.createUpDownCounter('openmic.calls.active', {
      description: 'Calls in progress',
      unit: '{call}',
    }),
  }
}
