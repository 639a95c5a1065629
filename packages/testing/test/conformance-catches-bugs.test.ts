import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

// The speech suites run against classes that each break one rule (broken/broken-speech.suite.ts),
// in a child vitest: each must fail the tests that check the rule it breaks. (The suites passing
// for MockSTT, MockTTS and the fallbacks is the other half.)

const here = dirname(fileURLToPath(import.meta.url))
const vitestBin = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs'
)

/** The failed tests of each suite of the broken classes (title and message), by suite name. */
const failed = new Map<string, string[]>()

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'openmic-conformance-'))
  const report = join(dir, 'report.json')
  try {
    await new Promise<void>((resolve) => {
      // Exits with 1 (tests failed): expected.
      execFile(
        process.execPath,
        [
          vitestBin,
          'run',
          '--config',
          join(here, 'broken/vitest.config.ts'),
          '--reporter=json',
          `--outputFile=${report}`,
        ],
        () => resolve()
      )
    })
    const results = JSON.parse(await readFile(report, 'utf8')) as {
      testResults: Array<{
        assertionResults: Array<{
          ancestorTitles: string[]
          title: string
          status: string
          failureMessages: string[]
        }>
      }>
    }
    for (const test of results.testResults.flatMap((file) => file.assertionResults)) {
      const suite = test.ancestorTitles[0]!.replace(/ \((STT|TTS) conformance\)$/, '')
      if (test.status !== 'failed') continue
      const failure = `${test.title}: ${test.failureMessages.join('\n')}`
      failed.set(suite, [...(failed.get(suite) ?? []), failure])
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}, 120_000)

describe('the speech conformance suites catch broken classes', () => {
  it.each([
    ['TwiceSTT', 'transcribes one utterance', 'nothing more after the text'],
    [
      'DoubleEndSTT',
      'ends each utterance with one TranscriptEnd',
      'one TranscriptEnd per utterance',
    ],
    ['HangingSTT', 'turns a provider failure into Failed', 'Failed: not within'],
    ['LeakySTT', 'destroy() right after creation', 'emitted after destroy()'],
    ['TimerLeakSTT', 'destroy() mid-utterance', 'Timeout created at'],
    ['TimerLeakSTT', 'destroy() right after creation', 'Timeout created at'],
    ['RejectingSTT', 'transcribes one utterance', 'nobody catches this'],
    ['StaysClosedSTT', 'transcribes the utterance after the provider closed', 'not within'],
    ['OddTTS', 'speaks a streamed text', 'odd number of bytes'],
    ['SilentTTS', 'speaks a streamed text', 'audio level'],
    ['QueueingTTS', 'a new speak() replaces the current one', 'one AudioEnd'],
    ['DeafTTS', 'cancel() mid-speech', 'events after cancel()'],
    ['DeafTTS', 'destroy() mid-speech', 'emitted after destroy()'],
    ['LateWordsTTS', 'gives Words in order', 'of audio'],
  ])('%s fails "%s…" (%s)', (suite, test, reason) => {
    const failures = (failed.get(suite) ?? []).filter((failure) => failure.startsWith(test))
    expect(failures.join('\n---\n')).toContain(reason)
  })

  it('passes a class that opens its connection again (the control of StaysClosedSTT)', () => {
    expect(failed.get('ReconnectingSTT') ?? []).toEqual([])
  })
})
