import { PassThrough } from 'node:stream'
import type { STT } from '@openmic/core'
import { audioBytes, MICDROP_AUDIO_FORMAT } from '@openmic/core/provider'
import { describe, expect, it } from 'vitest'
import { TestedSpeech } from './tested-speech.js'
import { skipped, pause } from './speech-kit.js'
import { speechSuite } from './speech-suite.js'
import type {
  STTConformanceOptions,
  STTConformanceSetup,
  STTConformanceUtterance,
} from './stt-types.js'

const DEFAULT_TRANSCRIPTS = ['hello there', 'what time is it', 'thank you very much']
/** Chunk sizes in bytes, cycled over: odd sizes cut samples in two across chunks. */
const ODD_SIZES = [1, 3, 333, 7, 641, 1001, 2, 5]

/**
 * Declares vitest tests that any STT must pass: the contract documented on `STT` in
 * `@openmic/core`, checked from outside. One utterance gives its `Transcript` (after its
 * `Partial`s), and an STT that signals the end of an utterance's text (`signalsTranscriptEnd`) emits
 * one `TranscriptEnd` after it; one instance transcribes several utterances in order; audio cut at odd byte sizes
 * is heard the same; an empty utterance ends without hanging; a provider failure becomes `Failed`,
 * not a hang, and the next utterance works; a stalled provider is given up (with
 * `stallTimeoutMs`); a connection the provider closed is opened again (with `reconnects`);
 * `destroy()` (mid-utterance or right after creation)
 * leaves no timer or socket and nothing is emitted after it; no promise rejection goes unhandled.
 *
 * `make` builds the STT for each test and scripts its provider (a fake server) utterance by
 * utterance through `next`. Tests that need what the class cannot do (`failures: false`) are
 * reported as skipped.
 *
 * @example
 * describeSTTConformance('MySTT', {
 *   make: async () => {
 *     const fake = await startMyFakeServer()
 *     return {
 *       stt: new MySTT({ apiKey: 'test', baseURL: fake.url }),
 *       next: (utterance) => {
 *         if (utterance.kind === 'speech') fake.replyTranscript(utterance.transcript)
 *         if (utterance.kind === 'failure') fake.replyError(500)
 *       },
 *       teardown: () => fake.close(),
 *     }
 *   },
 * })
 */
export function describeSTTConformance(name: string, options: STTConformanceOptions): void {
  const {
    partials = false,
    failures = true,
    recovers = true,
    stallTimeoutMs,
    reconnects = false,
    transcripts = DEFAULT_TRANSCRIPTS,
    matchTranscript = sameText,
    emptyTimeoutMs = 2000,
    chunkMs = 20,
    chunkIntervalMs = 0,
  } = options
  if (transcripts.length < 3) throw new Error('describeSTTConformance needs three transcripts')
  const [first, second, third] = transcripts as [string, string, string]

  describe(`${name} (STT conformance)`, () => {
    const suite = speechSuite(options, (setup) => new Tested(setup), emptyTimeoutMs)
    const { timeoutMs, quietMs, caseTimeout, start } = suite

    /** A tested STT: its setup, its event log, and helpers to speak to it. */
    class Tested extends TestedSpeech<STT> {
      constructor(readonly setup: STTConformanceSetup) {
        super(setup.stt, ['Partial', 'Transcript', 'TranscriptEnd', 'Failed'], () =>
          setup.teardown?.()
        )
      }

      get stt(): STT {
        return this.provider
      }

      /** Scripts the next utterance and opens its audio stream. */
      async open(utterance: STTConformanceUtterance): Promise<Utterance> {
        const audio = (await this.setup.next?.(utterance)) ?? testAudio()
        const mark = this.log.mark
        const stream = new PassThrough()
        this.stt.transcribe(stream)
        return { audio, mark, stream }
      }

      /** Sends a whole utterance (cut in chunks of `sizes`) and waits for its text or `Failed`. */
      async say(
        expected: string,
        sizes: (index: number) => number = chunkSize
      ): Promise<Utterance> {
        const utterance = await this.open(speech(expected))
        await send(utterance, 0, utterance.audio.length, sizes)
        utterance.stream.end()
        await this.heard(utterance, expected)
        return utterance
      }

      /** Sends a whole utterance the provider fails (or stalls on), and waits for its `Failed`. */
      async fails(kind: 'failure' | 'stall'): Promise<Utterance> {
        const utterance = await this.open({ kind })
        await send(utterance, 0, utterance.audio.length, chunkSize)
        utterance.stream.end()
        await suite.untilFailed(this, utterance.mark, kind)
        return utterance
      }

      /** Waits until the utterance's transcripts make `expected` (fails on `Failed`). */
      async heard({ mark }: Utterance, expected: string): Promise<void> {
        const failed = () => this.log.since(mark, 'Failed').length > 0
        await this.log.until(
          () => failed() || matchTranscript(this.text(mark), expected),
          timeoutMs,
          `Transcript "${expected}"`
        )
        const failure = this.log.since(mark, 'Failed')[0]
        if (failure) throw new Error(`Failed instead of "${expected}": ${String(failure.args[0])}`)
      }

      /** The transcripts emitted since `mark`, joined. */
      text(mark: number): string {
        return this.log
          .since(mark, 'Transcript')
          .map((event) => String(event.args[0]))
          .filter((text) => text.trim() !== '')
          .join(' ')
      }
    }

    function chunkSize(): number {
      return audioBytes(chunkMs)
    }

    /** Writes `audio[from, to)` to the utterance's stream, in chunks. */
    async function send(
      { audio, stream }: Utterance,
      from: number,
      to: number,
      sizes: (index: number) => number
    ) {
      for (let offset = from, index = 0; offset < to; index++) {
        const end = Math.min(to, offset + Math.max(1, sizes(index)))
        stream.write(audio.subarray(offset, end))
        offset = end
        await pause(chunkIntervalMs)
      }
    }

    it(
      'transcribes one utterance: its Transcript, after its Partials',
      async () => {
        const tested = await start()
        const { mark } = await tested.say(first)
        await pause(quietMs)
        const heard = tested.text(mark)
        expect(matchTranscript(heard, first), `"${heard}": nothing more after the text`).toBe(true)
        const events = tested.log.since(mark)
        expect(events.filter((event) => event.name === 'Failed')).toEqual([])
        const partialsSeen = events.filter((event) => event.name === 'Partial')
        if (partials)
          expect(partialsSeen.length, 'Partial before the Transcript').toBeGreaterThan(0)
        const lastTranscript = events.findLastIndex((event) => event.name === 'Transcript')
        const lastPartial = events.findLastIndex((event) => event.name === 'Partial')
        expect(lastPartial, 'no Partial after the Transcript').toBeLessThan(lastTranscript)
      },
      caseTimeout
    )

    it(
      'ends each utterance with one TranscriptEnd after its last Transcript, if it signals them',
      async (context) => {
        const tested = await start()
        if (!tested.stt.signalsTranscriptEnd) return context.skip('signalsTranscriptEnd is false')
        const marks: number[] = []
        for (const expected of [first, second]) {
          const { mark } = await tested.say(expected)
          marks.push(mark)
          await tested.log.until(
            () => tested.log.since(mark, 'TranscriptEnd').length > 0,
            timeoutMs,
            `TranscriptEnd after "${expected}"`
          )
        }
        await pause(quietMs)
        marks.push(tested.log.mark)
        for (let i = 0; i < 2; i++) {
          const events = tested.log.events.slice(marks[i], marks[i + 1])
          const ends = events.filter((event) => event.name === 'TranscriptEnd')
          expect(ends.length, 'one TranscriptEnd per utterance').toBe(1)
          const end = events.indexOf(ends[0]!)
          const lastText = events.findLastIndex(
            (event) => event.name === 'Transcript' || event.name === 'Partial'
          )
          expect(lastText, 'no text after TranscriptEnd').toBeLessThan(end)
        }
      },
      caseTimeout
    )

    it(
      'transcribes several utterances with one instance, in order',
      async () => {
        const tested = await start()
        for (const expected of [first, second, third]) await tested.say(expected)
        const heard = tested.log
          .since(0, 'Transcript')
          .map((event) => String(event.args[0]))
          .filter((text) => text.trim() !== '')
          .join(' ')
        expect(matchTranscript(heard, [first, second, third].join(' ')), heard).toBe(true)
        expect(tested.log.since(0, 'Failed')).toEqual([])
      },
      caseTimeout
    )

    it(
      'hears audio cut in chunks of odd byte sizes (samples split across chunks)',
      async () => {
        const tested = await start()
        await tested.say(second, (index) => ODD_SIZES[index % ODD_SIZES.length]!)
        expect(tested.log.since(0, 'Failed')).toEqual([])
      },
      caseTimeout
    )

    it(
      'ends an empty utterance (no audio) without hanging, then transcribes the next one',
      async () => {
        const tested = await start()
        const empty = await tested.open({ kind: 'empty' })
        empty.stream.end()
        await tested.log.wait(
          () => tested.log.since(empty.mark, 'Transcript', 'Failed').length > 0,
          emptyTimeoutMs
        )
        await pause(quietMs)
        const answers = tested.log.since(empty.mark, 'Transcript', 'Failed', 'Partial')
        expect(
          answers.map((event) => [event.name, ...event.args]),
          'an empty Transcript or nothing'
        ).toEqual(answers.length === 0 ? [] : [['Transcript', '']])
        await tested.say(third)
      },
      caseTimeout
    )

    it.skipIf(!failures)(
      'turns a provider failure into Failed, not a hang' + skipped(!failures, 'failures: false'),
      async () => {
        const tested = await start()
        const failing = await tested.fails('failure')
        await pause(quietMs)
        expect(tested.text(failing.mark), 'no transcript of the failed utterance').toBe('')
      },
      caseTimeout
    )

    it.skipIf(!failures || !recovers)(
      'transcribes the utterance after a failed one' +
        skipped(!failures, 'failures: false') +
        skipped(failures && !recovers, 'recovers: false'),
      async () => {
        const tested = await start()
        await tested.fails('failure')
        await tested.say(first)
      },
      caseTimeout
    )

    it.skipIf(!reconnects)(
      'transcribes the utterance after the provider closed the connection' +
        skipped(!reconnects, 'reconnects: false'),
      async () => {
        const tested = await start()
        const { closeConnection } = tested.setup
        if (!closeConnection) throw new Error('reconnects: true needs setup.closeConnection()')
        await tested.say(first)
        await closeConnection()
        await pause(quietMs) // the close reaches the class, idle between utterances
        await tested.say(second)
        expect(tested.log.since(0, 'Failed'), 'Failed').toEqual([])
      },
      caseTimeout
    )

    it.skipIf(stallTimeoutMs === undefined)(
      'gives a stalled provider up with Failed, within its timeout' +
        skipped(stallTimeoutMs === undefined, 'no stallTimeoutMs'),
      async () => {
        const tested = await start()
        const stalled = await tested.fails('stall')
        await pause(quietMs)
        expect(tested.text(stalled.mark), 'no transcript of the stalled utterance').toBe('')
      },
      caseTimeout + (stallTimeoutMs ?? 0)
    )

    suite.itReleasesOnDestroy(
      'destroy() mid-utterance releases every socket and timer; nothing is emitted after it',
      async (tested) => {
        await tested.say(first)
        const cut = await tested.open(speech(second))
        const half = Math.floor(cut.audio.length / 4) * 2
        await send(cut, 0, half, chunkSize)
        await pause(chunkMs)
        tested.destroy()
        await send(cut, half, cut.audio.length, chunkSize)
        cut.stream.end()
      }
    )

    suite.itReleasesOnDestroy(
      'destroy() right after creation releases every socket and timer',
      async (tested) => tested.destroy()
    )
  })
}

/** One utterance sent to the STT under test. */
interface Utterance {
  audio: Buffer
  /** Where its events start in the log. */
  mark: number
  stream: PassThrough
}

function speech(transcript: string): STTConformanceUtterance {
  const words = transcript.split(/\s+/).filter(Boolean)
  const partials =
    words.length <= 1 ? words : words.slice(1).map((_, i) => words.slice(0, i + 1).join(' '))
  const deltas = partials.map((partial, i) => partial.slice(i > 0 ? partials[i - 1]!.length : 0))
  return { kind: 'speech', transcript, partials, deltas }
}

function sameText(heard: string, expected: string): boolean {
  const normalize = (text: string) => text.trim().replace(/\s+/g, ' ')
  return normalize(heard) === normalize(expected)
}

/**
 * 800 ms of a voiced sound (a 140 Hz buzz with formant-like harmonics and a syllable rhythm): not
 * speech, but audio a voice-activity detector would not drop as silence.
 */
function testAudio(): Buffer {
  const rate = MICDROP_AUDIO_FORMAT.sampleRate
  const audio = Buffer.alloc(audioBytes(800))
  for (let i = 0; i < audio.length / 2; i++) {
    const t = i / rate
    const envelope = 0.5 - 0.5 * Math.cos(2 * Math.PI * 4 * t)
    let value = 0
    for (const [harmonic, gain] of [
      [1, 0.5],
      [4, 0.3],
      [9, 0.2],
    ] as const)
      value += gain * Math.sin(2 * Math.PI * 140 * harmonic * t)
    audio.writeInt16LE(Math.round(0.4 * 32767 * envelope * value), i * 2)
  }
  return audio
}
