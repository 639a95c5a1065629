import type { CallScript, ScriptedAnswer, ScriptedTranscript, UserStep } from './script.js'

/** Knobs of {@link randomScript}. */
export interface RandomScriptOptions {
  /** The client kind; default: either, at random. */
  client?: 'openmic' | 'micdrop'
  /** At most this many user utterances (default 4; at least 1). */
  maxUtterances?: number
  /** One-way latency is drawn up to this (default 150 ms). */
  maxLatencyMs?: number
  /** Failing agent answers, TTS, STT and store (default true). */
  failures?: boolean
  /** Barge-ins: the user speaking over the assistant, at chosen instants (default true). */
  bargeIns?: boolean
}

const WORDS = [
  'sure',
  'the',
  'weather',
  'is',
  'fine',
  'today',
  'and',
  'tomorrow',
  'we',
  'can',
  'book',
  'a',
  'table',
  'for',
  'two',
  'at',
  'eight',
  'please',
  'hold',
  'on',
  'let',
  'me',
  'check',
  'that',
]

/** A small seeded generator (mulberry32): the same seed, the same numbers. */
function generator(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const chance = (p: number) => next() < p
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!
  const phrase = (min: number, max: number) =>
    Array.from({ length: int(min, max) }, () => pick(WORDS)).join(' ')
  return { int, chance, pick, phrase }
}

type Random = ReturnType<typeof generator>

/**
 * A random call script for property tests, from a seed: the same seed gives the same script.
 * It covers what scripts can say: both clients, latencies and prebuffers, a greeting or none,
 * utterances and coughs, barge-ins at chosen instants or into the assistant's audio, mute and
 * hang-up; transcripts at once, late, in pieces, empty, failing or missing, with and without
 * `TranscriptEnd`; answers with delays, failures and the `end_call`, `ignore_user_noise` and
 * `semantic_turn` tools; slow and failing TTS and store.
 */
export function randomScript(seed: number, options: RandomScriptOptions = {}): CallScript {
  const random = generator(seed)
  // Drawn even when given: a seed makes the same call for either client.
  const client = random.pick(['openmic', 'micdrop'] as const)
  const failures = options.failures ?? true
  const count = random.int(1, Math.max(1, options.maxUtterances ?? 4))
  const script: CallScript = {
    client: options.client ?? client,
    latencyMs: random.pick(
      [0, 5, 20, 50, 100, 150].filter((ms) => ms <= (options.maxLatencyMs ?? 150))
    ),
    prebufferMs: random.pick([0, 30, 60, 120]),
    server: serverOptions(random),
    agent: {
      answers: Array.from({ length: count + 2 }, (_, index) => answer(random, index + 1, failures)),
      firstWordDelayMs: random.pick([0, 0, 50, 300, 800]),
      wordDelayMs: random.pick([0, 0, 20, 60]),
    },
    stt: { transcriptEnd: random.chance(0.7) },
    tts: {
      firstAudioDelayMs: random.pick([0, 0, 50, 200, 500]),
      ...chunks(random),
      ...(failures && random.chance(0.1)
        ? { failures: [{ speak: random.int(1, count + 1), afterChunks: random.int(0, 4) }] }
        : {}),
    },
    steps: steps(random, count, failures, options.bargeIns ?? true),
  }
  if (random.chance(0.3)) script.store = storeBehaviour(random, failures)
  // The user waits for the history to load: the checks time the frames sent meanwhile only
  // roughly (see `CallScript.store`).
  const first = script.steps[0]!
  const loading = (script.store?.loadDelayMs ?? 0) + 2 * (script.latencyMs ?? 0)
  if ('pause' in first && first.pause < loading) first.pause = loading
  return script
}

function serverOptions(random: Random): NonNullable<CallScript['server']> {
  const server: NonNullable<CallScript['server']> = {}
  if (random.chance(0.6))
    server.firstMessage = 'Hello, this is the assistant, how can I help you today?'
  if (random.chance(0.1)) server.resumeAfterNoise = false
  if (random.chance(0.3)) server.transcriptGraceMs = random.pick([100, 300, 600])
  if (random.chance(0.3)) server.transcriptTimeoutMs = random.pick([1000, 3000])
  if (random.chance(0.3)) server.resumeTimeoutMs = random.pick([500, 1500, 3000])
  return server
}

/** Answer `n`: its text numbered, so that no two answers say the same. */
function answer(random: Random, n: number, failures: boolean): ScriptedAnswer {
  const text = `Answer ${n}: ${random.phrase(2, 14)}.`
  const delayMs = random.chance(0.2) ? random.pick([200, 800, 2000]) : undefined
  const roll = random.int(1, 100)
  if (roll <= 8) return { text: `Goodbye ${n}.`, tools: ['end_call'], delayMs }
  if (roll <= 11) return { tools: ['end_call'], then: `Bye now ${n}.`, delayMs }
  if (roll <= 18) return { tools: ['ignore_user_noise'], delayMs }
  if (roll <= 23) return { tools: ['semantic_turn'], delayMs }
  if (failures && roll <= 28)
    return { text: random.chance(0.5) ? text : undefined, error: 'Scripted agent failure', delayMs }
  if (roll <= 31)
    return { text: `Let me look ${n}.`, tools: ['lookup'], then: `Found it ${n}.`, delayMs }
  return delayMs === undefined ? text : { text, delayMs }
}

function chunks(random: Random): { chunkMs: number; chunkDelayMs: number } {
  const chunkMs = random.pick([20, 50, 100])
  return { chunkMs, chunkDelayMs: random.pick([0, 0, chunkMs / 2, chunkMs, (chunkMs * 3) / 2]) }
}

function storeBehaviour(random: Random, failures: boolean): NonNullable<CallScript['store']> {
  return {
    appendDelayMs: random.pick([0, 10, 50, 300]),
    loadDelayMs: random.pick([0, 0, 100, 600]),
    ...(failures && random.chance(0.4)
      ? { failAppends: [random.int(1, 6), random.int(1, 10)] }
      : {}),
  }
}

function steps(random: Random, count: number, failures: boolean, bargeIns: boolean): UserStep[] {
  const steps: UserStep[] = [
    random.chance(0.7) ? { waitFor: 'quiet' } : { pause: random.int(0, 2000) },
  ]
  for (let n = 1; n <= count; n++) {
    if (n > 1) steps.push(before(random, bargeIns))
    steps.push(utterance(random, failures))
    if (random.chance(0.04)) steps.push({ mute: true })
    if (random.chance(0.03)) {
      steps.push({ pause: random.int(0, 1500) }, { hangUp: true })
      return steps
    }
  }
  steps.push({ waitFor: 'quiet' })
  return steps
}

/** What the user waits for before speaking again. */
function before(random: Random, bargeIns: boolean): UserStep {
  const roll = random.int(1, 100)
  if (!bargeIns || roll <= 50) return { waitFor: 'quiet', thenMs: random.pick([100, 300, 800]) }
  if (roll <= 80) return { waitFor: 'speech', thenMs: random.int(0, 1500) }
  return { pause: random.int(0, 1500) }
}

function utterance(random: Random, failures: boolean): UserStep {
  if (random.chance(0.2)) {
    const cough: UserStep = { cough: random.int(50, 600) }
    if (random.chance(0.3)) cough.stt = { pieces: [{ text: 'Hmm' }] }
    return cough
  }
  const say = random.phrase(1, 8)
  const step: Extract<UserStep, { say: string }> = { say, ms: random.int(200, 2500) }
  const stt = transcript(random, say, failures)
  if (stt) step.stt = stt
  const end = random.int(1, 100)
  if (end <= 3) step.endWith = 'mute'
  else if (end <= 5) step.endWith = 'hangUp'
  return step
}

function transcript(
  random: Random,
  say: string,
  failures: boolean
): ScriptedTranscript | undefined {
  const roll = random.int(1, 100)
  if (roll <= 60) return undefined
  if (roll <= 75) {
    const words = say.split(' ')
    const cut = random.int(1, Math.max(1, words.length - 1))
    return {
      pieces: [
        { text: words.slice(0, cut).join(' '), afterMs: random.pick([0, 50]) },
        {
          text: words.slice(cut).join(' ') || 'again',
          afterMs: random.pick([100, 250, 400, 900, 2000]),
        },
      ],
    }
  }
  if (roll <= 85) return { pieces: [{ text: say, afterMs: random.pick([300, 800, 2000]) }] }
  if (roll <= 90) return { pieces: [{ text: '' }] }
  if (!failures) return undefined
  if (roll <= 95) return { failAfterMs: random.pick([0, 200]) }
  return { silent: true }
}
