import {
  ProviderError,
  type RealtimeInput,
  type RealtimeModel,
  type RealtimeOutput,
  type RealtimeResponse,
  type RealtimeResponseEnd,
  type RealtimeSessionConfig,
} from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { expectNothingAfterDestroy } from './event-log.js'
import type {
  RealtimeConformanceOptions,
  RealtimeConformanceSetup,
  RealtimeConformanceStep,
} from './realtime-types.js'
import { expectReleased } from './resources.js'
import { failOnUnhandledErrors, levelDbfs, pause, skipped } from './speech-kit.js'
import { speechTestLifecycle, TestedSpeech } from './tested-speech.js'

const CONFIG: RealtimeSessionConfig = {
  instructions: 'You are a test assistant. Answer briefly.',
  tools: [
    {
      name: 'get_time',
      description: 'Gives the time in a time zone',
      parameters: {
        type: 'object',
        properties: { tz: { type: 'string' } },
        required: ['tz'],
        additionalProperties: false,
      },
    },
  ],
}

/** What a response gave, and how it ended. */
interface Followed {
  outputs: RealtimeOutput[]
  /** Outputs that came after `cancel()` (none, by the contract). */
  afterCancel: RealtimeOutput[]
  /** Resolves with how it ended (fails after the suite's timeout). */
  ended(): Promise<RealtimeResponseEnd>
}

/** A sine tone at 16 kHz (PCM16): the user's audio. */
function userAudio(ms: number): Buffer {
  const samples = (ms * 16_000) / 1000
  const audio = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    audio.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / 16_000)), i * 2)
  }
  return audio
}

/**
 * Declares vitest tests that any `RealtimeModel` must pass: the contract documented on
 * `RealtimeModel` in `@openmic/core`, checked from outside. A response speaks (PCM16 16 kHz
 * audio, not silence, a transcript, one `Done`); a commit of the user's audio becomes an item with
 * its transcript, and a commit of nothing is `''`; a function call comes whole, and the response
 * after its result is created works; `cancel()` stops a response (nothing after it, `cancelled`)
 * and the next works; a response asked for while another is active waits for it; `say()` speaks;
 * items are created, truncated and deleted without failing; a failed response ends `failed` with
 * a `ProviderError`; a dropped or refused session is `Failed` with a `ProviderError`, and the next
 * call opens a new session; `destroy()` leaves no timer or socket and nothing is emitted after
 * it; no promise rejection goes unhandled.
 *
 * `make` builds the model for each test and scripts its provider (a fake server) through `next`.
 *
 * @example
 * describeRealtimeConformance('AcmeRealtime', {
 *   make: async () => {
 *     const fake = await startAcmeFake()
 *     return {
 *       model: new AcmeRealtime({ apiKey: 'test', baseURL: fake.url }),
 *       next: (step) => fake.script(step),
 *       teardown: () => fake.close(),
 *     }
 *   },
 * })
 */
export function describeRealtimeConformance(
  name: string,
  options: RealtimeConformanceOptions
): void {
  const {
    sessionFailures = true,
    minLevelDbfs = -50,
    timeoutMs = 5000,
    quietMs = 400,
    releaseTimeoutMs = 1000,
    ignoreResources = [],
  } = options
  const caseTimeout = 4 * timeoutMs + releaseTimeoutMs + 4 * quietMs + 5000

  describe(`${name} (realtime conformance)`, () => {
    failOnUnhandledErrors()
    const { track, watching } = speechTestLifecycle()

    class Tested extends TestedSpeech<RealtimeModel> {
      constructor(readonly setup: RealtimeConformanceSetup) {
        super(setup.model, ['Failed'], () => setup.teardown?.())
      }

      get model(): RealtimeModel {
        return this.provider
      }

      async next(step: RealtimeConformanceStep): Promise<void> {
        await this.setup.next?.(step)
      }

      /** Scripts a reply, asks for it, and follows it. */
      async respond(step: RealtimeConformanceStep): Promise<[RealtimeResponse, Followed]> {
        await this.next(step)
        const response = this.model.respond()
        return [response, follow(response)]
      }

      /** Appends `ms` of user audio and commits it, its transcript scripted. */
      async commit(ms: number, transcript: string): Promise<RealtimeInput> {
        await this.next({ kind: 'transcript', text: transcript })
        const audio = userAudio(ms)
        for (let at = 0; at < audio.length; at += 3200) {
          this.model.appendAudio(audio.subarray(at, at + 3200))
        }
        return this.model.commitAudio()
      }
    }

    async function start(): Promise<Tested> {
      const tested = track(new Tested(await options.make()))
      tested.model.configure(CONFIG)
      return tested
    }

    function follow(response: RealtimeResponse): Followed {
      let done: RealtimeResponseEnd | undefined
      const waiters: Array<() => void> = []
      const outputs: RealtimeOutput[] = []
      const afterCancel: RealtimeOutput[] = []
      response.follow(
        (output) => (response.cancelled ? afterCancel : outputs).push(output),
        (end) => {
          done = end
          for (const waiter of waiters.splice(0)) waiter()
        }
      )
      const followed: Followed = {
        outputs,
        afterCancel,
        // The timeout starts when the test waits for the end (a destroyed model never ends it)
        ended: () =>
          new Promise<RealtimeResponseEnd>((resolve, reject) => {
            if (done) return resolve(done)
            const timer = setTimeout(
              () => reject(new Error(`the response did not end within ${timeoutMs} ms`)),
              timeoutMs
            )
            waiters.push(() => {
              clearTimeout(timer)
              resolve(done!)
            })
          }),
      }
      return followed
    }

    /** Resolves with the input's transcript, or rejects with its failure, within the timeout. */
    function transcriptOf(input: RealtimeInput): Promise<string> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no transcript')), timeoutMs)
        input.whenSettled(
          (text) => {
            clearTimeout(timer)
            resolve(text)
          },
          (error) => {
            clearTimeout(timer)
            reject(error)
          }
        )
      })
    }

    /** Spoken output: audio in even byte lengths, audible, and a transcript. */
    function expectSpoken(outputs: RealtimeOutput[], text?: string) {
      const audio = outputs.flatMap((output) => (output.type === 'audio' ? [output.audio] : []))
      expect(audio.length, 'audio chunks').toBeGreaterThan(0)
      const odd = audio.filter((chunk) => chunk.length % 2 !== 0).map((chunk) => chunk.length)
      expect(odd, 'audio chunks of an odd number of bytes (PCM16 is 2 bytes a sample)').toEqual([])
      expect(levelDbfs(Buffer.concat(audio)), 'audio level (dBFS)').toBeGreaterThan(minLevelDbfs)
      const transcript = outputs
        .flatMap((output) => (output.type === 'transcript' ? [output.delta] : []))
        .join('')
      if (text !== undefined) expect(transcript.trim()).toBe(text)
      const items = outputs.flatMap((output) => (output.type === 'item' ? [output.itemId] : []))
      const spokenIn = new Set(outputs.flatMap((o) => (o.type === 'audio' ? [o.itemId] : [])))
      expect(
        [...spokenIn].every((id) => items.includes(id)),
        'audio of an announced item'
      ).toBe(true)
    }

    it(
      'a response speaks: an item, its transcript, PCM16 16 kHz audio, then one Done completed',
      async () => {
        const tested = await start()
        expect(tested.model.session, 'a session once configured').not.toBe('')
        const [response, followed] = await tested.respond({
          kind: 'response',
          text: 'Hello there.',
        })
        expect(
          response.outputs.length === 0 && !response.done,
          'nothing emitted from within respond()'
        ).toBe(true)
        expect(await followed.ended()).toEqual({ status: 'completed' })
        expectSpoken(followed.outputs, 'Hello there.')
      },
      caseTimeout
    )

    it(
      "a commit of user audio becomes an item with its transcript; a commit of nothing is ''",
      async () => {
        const tested = await start()
        const input = await tested.commit(600, 'What time is it?')
        expect(await transcriptOf(input)).toBe('What time is it?')
        expect(input.itemId, 'the committed item').toEqual(expect.any(String))
        const empty = tested.model.commitAudio()
        expect(await transcriptOf(empty)).toBe('')
        // The session goes on
        const [, followed] = await tested.respond({ kind: 'response', text: 'Noon.' })
        expect((await followed.ended()).status).toBe('completed')
      },
      caseTimeout
    )

    it(
      'a function call comes whole; with its result created, the next response speaks',
      async () => {
        const tested = await start()
        const [, called] = await tested.respond({
          kind: 'function-call',
          name: 'get_time',
          arguments: '{"tz":"UTC"}',
        })
        expect((await called.ended()).status).toBe('completed')
        const call = called.outputs.find((output) => output.type === 'function-call')
        expect(call).toMatchObject({ name: 'get_time', arguments: '{"tz":"UTC"}' })
        if (call?.type !== 'function-call') return
        tested.model.createItem(
          { role: 'tool_result', toolCallId: call.callId, toolName: call.name, output: '"12:00"' },
          { id: 'conformance_result_1', after: call.itemId }
        )
        const [, followed] = await tested.respond({ kind: 'response', text: 'It is noon.' })
        expect(await followed.ended()).toEqual({ status: 'completed' })
        expectSpoken(followed.outputs, 'It is noon.')
        expect(tested.log.since(0, 'Failed')).toEqual([])
      },
      caseTimeout
    )

    it(
      'cancel() mid-response: nothing after it, Done cancelled, and the next response speaks',
      async () => {
        const tested = await start()
        const [response, followed] = await tested.respond({
          kind: 'slow-response',
          text: 'This answer takes a long while to say, sentence after sentence.',
        })
        await waitFor(() => followed.outputs.some((output) => output.type === 'audio'), timeoutMs)
        response.cancel()
        expect((await followed.ended()).status).toBe('cancelled')
        await pause(quietMs)
        expect(followed.afterCancel, 'output after cancel()').toEqual([])
        const [, next] = await tested.respond({ kind: 'response', text: 'Next one.' })
        expect((await next.ended()).status).toBe('completed')
        expectSpoken(next.outputs, 'Next one.')
      },
      caseTimeout
    )

    it(
      'a response asked for while another is active starts once that one ended; both speak',
      async () => {
        const tested = await start()
        await tested.next({ kind: 'response', text: 'First answer here.' })
        await tested.next({ kind: 'response', text: 'Second answer.' })
        const first = follow(tested.model.respond())
        const second = follow(tested.model.respond())
        const [firstEnd, secondEnd] = await Promise.all([first.ended(), second.ended()])
        expect([firstEnd.status, secondEnd.status]).toEqual(['completed', 'completed'])
        expectSpoken(first.outputs, 'First answer here.')
        expectSpoken(second.outputs, 'Second answer.')
      },
      caseTimeout
    )

    it(
      'say() speaks a text; the session goes on',
      async () => {
        const tested = await start()
        await tested.next({ kind: 'response', text: 'Welcome to the test.' })
        const followed = follow(tested.model.say('Welcome to the test.'))
        expect((await followed.ended()).status).toBe('completed')
        expectSpoken(followed.outputs)
        const [, next] = await tested.respond({ kind: 'response', text: 'Fine.' })
        expect((await next.ended()).status).toBe('completed')
      },
      caseTimeout
    )

    it(
      'items are created (first, after another, last), a spoken one truncated, one deleted, without failing',
      async () => {
        const tested = await start()
        const { model } = tested
        model.createItem({ role: 'user', content: 'My name is Ada.' }, { id: 'conf_a' })
        model.createItem(
          { role: 'assistant', content: 'Hello Ada.' },
          { id: 'conf_b', after: 'conf_a' }
        )
        model.createItem({ role: 'system', content: 'Be kind.' }, { id: 'conf_c', after: null })
        const [, followed] = await tested.respond({ kind: 'response', text: 'Nice to meet you.' })
        await followed.ended()
        const spoken = followed.outputs.find(
          (output) => output.type === 'item' && output.kind === 'message'
        )
        expect(spoken, 'a spoken item').toBeDefined()
        model.truncateItem(spoken!.itemId, 100)
        model.deleteItem('conf_b')
        const [, next] = await tested.respond({ kind: 'response', text: 'Anything else?' })
        expect((await next.ended()).status).toBe('completed')
        await pause(quietMs)
        expect(tested.log.since(0, 'Failed')).toEqual([])
      },
      caseTimeout
    )

    it(
      'a failed response ends failed with a ProviderError; the next response speaks',
      async () => {
        const tested = await start()
        const [, failed] = await tested.respond({ kind: 'failed-response' })
        const end = await failed.ended()
        expect(end.status).toBe('failed')
        expect(end.error).toBeInstanceOf(ProviderError)
        const [, next] = await tested.respond({ kind: 'response', text: 'Back again.' })
        expect((await next.ended()).status).toBe('completed')
      },
      caseTimeout
    )

    it(
      `a dropped session: Failed (a ProviderError), the response in progress failed, then a new session${skipped(!sessionFailures, 'sessionFailures: false')}`,
      async () => {
        if (!sessionFailures) return
        const tested = await start()
        const [, followed] = await tested.respond({
          kind: 'slow-response',
          text: 'A long answer that the dropped session never finishes saying.',
        })
        await waitFor(() => followed.outputs.length > 0, timeoutMs)
        const first = tested.model.session
        const mark = tested.log.mark
        await tested.next({ kind: 'drop' })
        const end = await followed.ended()
        expect(end.status).toBe('failed')
        expect(end.error).toBeInstanceOf(ProviderError)
        await tested.log.until(
          () => tested.log.since(mark, 'Failed').length > 0,
          timeoutMs,
          'Failed'
        )
        expect(tested.log.since(mark, 'Failed')[0]!.args[0]).toBeInstanceOf(ProviderError)
        tested.model.configure(CONFIG)
        expect(tested.model.session).not.toBe(first)
        const [, next] = await tested.respond({ kind: 'response', text: 'New session.' })
        expect((await next.ended()).status).toBe('completed')
      },
      caseTimeout
    )

    it(
      `a refused session: Failed with a ProviderError carrying the HTTP status${skipped(!sessionFailures, 'sessionFailures: false')}`,
      async () => {
        if (!sessionFailures) return
        const setup = await options.make()
        const tested = track(new Tested(setup))
        await tested.next({ kind: 'refuse', status: 401 })
        tested.model.configure(CONFIG)
        const followed = follow(tested.model.respond())
        await tested.log.until(() => tested.log.since(0, 'Failed').length > 0, timeoutMs, 'Failed')
        const error = tested.log.since(0, 'Failed')[0]!.args[0] as ProviderError
        expect(error).toBeInstanceOf(ProviderError)
        expect(error.status).toBe(401)
        expect((await followed.ended()).status).toBe('failed')
      },
      caseTimeout
    )

    it(
      'destroy(): no timer or socket left, nothing emitted after',
      async () => {
        const watch = watching()
        const tested = await start()
        const [, followed] = await tested.respond({
          kind: 'slow-response',
          text: 'An answer still being said when the model is destroyed.',
        })
        await waitFor(() => followed.outputs.length > 0, timeoutMs)
        tested.model.commitAudio()
        tested.destroy()
        await pause(quietMs)
        expectNothingAfterDestroy(tested.log)
        await expectReleased(watch, releaseTimeoutMs, ignoreResources)
      },
      caseTimeout
    )
  })
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`)
    await pause(5)
  }
}
