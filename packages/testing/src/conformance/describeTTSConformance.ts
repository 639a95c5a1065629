import { PassThrough } from 'node:stream'
import type { TTS, TTSWord } from '@openmic/core'
import { audioMs } from '@openmic/core/provider'
import { describe, expect, it } from 'vitest'
import type { LoggedEvent } from './event-log.js'
import { TestedSpeech } from './tested-speech.js'
import { skipped, levelDbfs, pause } from './speech-kit.js'
import { speechSuite } from './speech-suite.js'
import type {
  TTSConformanceOptions,
  TTSConformanceSetup,
  TTSConformanceSpeak,
} from './tts-types.js'

const SHORT = ['Hello there. ', 'This is a ', 'short test.']
/** Eight sentences, streamed one by one: long enough to be cut off mid-speech. */
const LONG = Array.from(
  { length: 8 },
  (_, i) => `Sentence number ${i + 1} of a long answer is spoken now. `
)

/**
 * Declares vitest tests that any TTS must pass: the contract documented on `TTS` in
 * `@openmic/core`, checked from outside. A streamed text gives `Audio` (PCM16: even byte lengths,
 * not silence) then exactly one `AudioEnd`, last, also when the text comes a few characters at a
 * time; after `cancel()` mid-speech nothing more comes and the next `speak()` works; a new
 * `speak()` replaces the current one; `Words` (when the class has them) count from the start of
 * their `speak()`'s audio and lie within it; a provider failure becomes `Failed` without
 * `AudioEnd`, and so does a stalled provider (with `stallTimeoutMs`); `destroy()` leaves no timer or socket and nothing is emitted after it; no promise
 * rejection goes unhandled.
 *
 * `make` builds the TTS for each test and scripts its provider (a fake server) `speak()` by
 * `speak()` through `next`. Tests that need what the class cannot do (`failures: false`,
 * `words: false`) are reported as skipped.
 *
 * @example
 * describeTTSConformance('MyTTS', {
 *   make: async () => {
 *     const fake = await startMyFakeServer() // answers every request with a tone by default
 *     return {
 *       tts: new MyTTS({ apiKey: 'test', baseURL: fake.url }),
 *       next: (speak) => fake.failRequests(speak.kind === 'failure' ? 500 : undefined),
 *       teardown: () => fake.close(),
 *     }
 *   },
 * })
 */
export function describeTTSConformance(name: string, options: TTSConformanceOptions): void {
  const {
    words = false,
    failures = true,
    recovers = true,
    stallTimeoutMs,
    wordsToleranceMs = 100,
    minLevelDbfs = -50,
  } = options

  describe(`${name} (TTS conformance)`, () => {
    const suite = speechSuite(options, (setup) => new Tested(setup))
    const { timeoutMs, quietMs, caseTimeout, start } = suite

    /** A tested TTS: its setup, its event log, and helpers to make it speak. */
    class Tested extends TestedSpeech<TTS> {
      constructor(readonly setup: TTSConformanceSetup) {
        super(setup.tts, ['Audio', 'Words', 'AudioEnd', 'Failed'], () => setup.teardown?.())
      }

      get tts(): TTS {
        return this.provider
      }

      /**
       * Scripts the provider, calls `speak()` and streams `pieces` to it, `intervalMs` apart, then
       * ends the text (`written` resolves then).
       */
      async speak(
        pieces: string[],
        {
          intervalMs = 20,
          kind = 'speech',
        }: { intervalMs?: number; kind?: TTSConformanceSpeak['kind'] } = {}
      ): Promise<Speaking> {
        await this.setup.next?.({ kind, text: pieces.join('') })
        const mark = this.log.mark
        const stream = new PassThrough()
        this.tts.speak(stream)
        const written = (async () => {
          for (const piece of pieces) {
            stream.write(piece)
            await pause(intervalMs)
          }
          stream.end()
        })()
        return { mark, written }
      }

      /**
       * Speaks a text the provider fails (or stalls on), waits for its `Failed` and a quiet time;
       * returns where its events start.
       */
      async fails(kind: 'failure' | 'stall'): Promise<number> {
        const { mark, written } = await this.speak(SHORT, { kind })
        await written
        await suite.untilFailed(this, mark, kind)
        await pause(quietMs)
        return mark
      }

      /** Waits for the `AudioEnd` (or the `Failed`) of the `speak()` started at `mark`. */
      async finished(mark: number): Promise<void> {
        await this.log.until(
          () => this.log.since(mark, 'AudioEnd', 'Failed').length > 0,
          timeoutMs,
          'AudioEnd'
        )
      }

      /** Waits for the first `Audio` after `mark`. */
      async firstAudio(mark: number): Promise<void> {
        await this.log.until(
          () => this.log.since(mark, 'Audio', 'Failed').length > 0,
          timeoutMs,
          'first Audio'
        )
        const failure = this.log.since(mark, 'Failed')[0]
        if (failure) throw new Error(`Failed before any audio: ${String(failure.args[0])}`)
      }

      /** Speaks `pieces` to the end and checks what came (see {@link expectSpoken}). */
      async says(pieces: string[], intervalMs?: number): Promise<LoggedEvent[]> {
        const { mark, written } = await this.speak(pieces, { intervalMs })
        await written
        await this.finished(mark)
        await pause(quietMs)
        const events = this.log.since(mark)
        expectSpoken(events)
        return events
      }
    }

    /** Audio chunks of even lengths making audible sound, then one `AudioEnd`, the last event. */
    function expectSpoken(events: LoggedEvent[]) {
      const failed = events.filter((event) => event.name === 'Failed')
      expect(
        failed.map((event) => String(event.args[0])),
        'Failed'
      ).toEqual([])
      const chunks = audioOf(events)
      expect(chunks.length, 'Audio chunks').toBeGreaterThan(0)
      const odd = chunks.filter((chunk) => chunk.length % 2 !== 0).map((chunk) => chunk.length)
      expect(odd, 'Audio chunks of an odd number of bytes (PCM16 is 2 bytes a sample)').toEqual([])
      expect(levelDbfs(Buffer.concat(chunks)), 'audio level (dBFS)').toBeGreaterThan(minLevelDbfs)
      const ends = events.filter((event) => event.name === 'AudioEnd')
      expect(ends, 'exactly one AudioEnd').toHaveLength(1)
      expect(events.at(-1)?.name, 'AudioEnd is the last event').toBe('AudioEnd')
    }

    it(
      'speaks a streamed text: Audio (PCM16, not silent), then one AudioEnd, last',
      async () => {
        const tested = await start()
        await tested.says(SHORT)
      },
      caseTimeout
    )

    it(
      'speaks a text streamed a few characters at a time',
      async () => {
        const tested = await start()
        const text = SHORT.join('')
        const pieces: string[] = []
        for (let at = 0, size = 1; at < text.length; at += size, size = (size % 4) + 1)
          pieces.push(text.slice(at, at + size))
        await tested.says(pieces, 0)
      },
      caseTimeout
    )

    it(
      'cancel() mid-speech: nothing more of that text, and the next speak() works',
      async () => {
        const tested = await start()
        const { mark, written } = await tested.speak(LONG, { intervalMs: 40 })
        await tested.firstAudio(mark)
        tested.tts.cancel()
        const cancelledAt = tested.log.mark
        await written // the text goes on arriving: it must not be spoken
        await pause(quietMs)
        expect(
          tested.log.summary(cancelledAt),
          'events after cancel() (Audio, Words, AudioEnd, Failed)'
        ).toBe('none')
        expect(tested.log.since(mark, 'AudioEnd'), 'no AudioEnd of a cancelled text').toEqual([])
        await tested.says(SHORT)
      },
      caseTimeout
    )

    it(
      'cancel() with nothing to cancel is harmless',
      async () => {
        const tested = await start()
        tested.tts.cancel()
        await tested.says(SHORT)
        tested.tts.cancel()
        await pause(quietMs)
        expect(tested.log.summary(tested.log.mark)).toBe('none')
      },
      caseTimeout
    )

    it(
      'a new speak() replaces the current one: one AudioEnd, nothing of the first text after it',
      async () => {
        const tested = await start()
        const first = await tested.speak(LONG, { intervalMs: 40 })
        await tested.firstAudio(first.mark)
        const second = await tested.speak([SHORT.join('')], { intervalMs: 0 })
        await tested.finished(second.mark)
        await Promise.all([first.written, second.written])
        await pause(quietMs)
        const events = tested.log.since(first.mark)
        expect(
          audioOf(tested.log.since(second.mark)).length,
          'Audio of the second text'
        ).toBeGreaterThan(0)
        expect(
          events.filter((event) => event.name === 'Failed').map((event) => String(event.args[0]))
        ).toEqual([])
        expect(
          events.filter((event) => event.name === 'AudioEnd'),
          'one AudioEnd'
        ).toHaveLength(1)
        expect(events.at(-1)?.name, 'AudioEnd is the last event').toBe('AudioEnd')
      },
      caseTimeout
    )

    it.skipIf(!words)(
      "gives Words in order, within their speak()'s audio" + skipped(!words, 'words: false'),
      async () => {
        const tested = await start()
        for (const text of [SHORT, ['Another one, said later.']]) {
          const events = await tested.says(text)
          const timings = events
            .filter((event) => event.name === 'Words')
            .flatMap((event) => event.args[0] as TTSWord[])
          const spokenMs = audioMs(Buffer.concat(audioOf(events)).length)
          expect(timings.length, 'Words').toBeGreaterThan(0)
          timings.forEach((word, i) => {
            const where = `word ${i} ${JSON.stringify(word)} of ${spokenMs} ms of audio`
            expect(word.startMs, where).toBeGreaterThanOrEqual(
              i === 0 ? 0 : timings[i - 1]!.startMs
            )
            expect(word.endMs, where).toBeGreaterThanOrEqual(word.startMs)
            expect(word.startMs, where).toBeLessThan(spokenMs)
            expect(word.endMs, where).toBeLessThanOrEqual(spokenMs + wordsToleranceMs)
          })
        }
      },
      caseTimeout
    )

    it.skipIf(!failures)(
      'turns a provider failure into Failed, without AudioEnd' +
        skipped(!failures, 'failures: false'),
      async () => {
        const tested = await start()
        const mark = await tested.fails('failure')
        expect(tested.log.since(mark, 'AudioEnd'), 'no AudioEnd after Failed').toEqual([])
      },
      caseTimeout
    )

    it.skipIf(!failures || !recovers)(
      'speaks the text after a failed one' +
        skipped(!failures, 'failures: false') +
        skipped(failures && !recovers, 'recovers: false'),
      async () => {
        const tested = await start()
        await tested.fails('failure')
        await tested.says(SHORT)
      },
      caseTimeout
    )

    it.skipIf(stallTimeoutMs === undefined)(
      'gives a stalled provider up with Failed, within its timeout, without AudioEnd' +
        skipped(stallTimeoutMs === undefined, 'no stallTimeoutMs'),
      async () => {
        const tested = await start()
        const mark = await tested.fails('stall')
        expect(tested.log.since(mark, 'AudioEnd'), 'no AudioEnd after Failed').toEqual([])
      },
      caseTimeout + (stallTimeoutMs ?? 0)
    )

    suite.itReleasesOnDestroy(
      'destroy() mid-speech releases every socket and timer; nothing is emitted after it',
      async (tested) => {
        const { mark, written } = await tested.speak(LONG, { intervalMs: 40 })
        await tested.firstAudio(mark)
        tested.destroy()
        await written
      }
    )

    suite.itReleasesOnDestroy(
      'destroy() right after creation releases every socket and timer',
      async (tested) => tested.destroy()
    )
  })
}

/** A `speak()` under way: where its events start, and the end of its text's writing. */
interface Speaking {
  mark: number
  written: Promise<void>
}

function audioOf(events: LoggedEvent[]): Buffer[] {
  return events.filter((event) => event.name === 'Audio').map((event) => event.args[0] as Buffer)
}
