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

/** The failed tests of each suite of the broken classes, by suite name. */
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
        assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }>
      }>
    }
    for (const test of results.testResults.flatMap((file) => file.assertionResults)) {
      const suite = test.ancestorTitles[0]!.replace(/ \((STT|TTS) conformance\)$/, '')
      if (test.status === 'failed') failed.set(suite, [...(failed.get(suite) ?? []), test.title])
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}, 120_000)

describe('the speech conformance suites catch broken classes', () => {
  it.each([
    ['TwiceSTT', 'transcribes one utterance', 'emits each transcript twice'],
    ['HangingSTT', 'turns a provider failure into Failed', 'never reports a failure'],
    ['LeakySTT', 'destroy() right after creation', 'emits after destroy()'],
    ['TimerLeakSTT', 'destroy() mid-utterance', 'leaves an interval running'],
    ['TimerLeakSTT', 'destroy() right after creation', 'leaves an interval running'],
    ['RejectingSTT', 'transcribes one utterance', 'leaves a rejection unhandled'],
    ['OddTTS', 'speaks a streamed text', 'emits odd-sized PCM16 chunks'],
    ['SilentTTS', 'speaks a streamed text', 'emits silence'],
    ['QueueingTTS', 'a new speak() replaces the current one', 'queues speak() calls'],
    ['DeafTTS', 'cancel() mid-speech', 'ignores cancel()'],
    ['DeafTTS', 'destroy() mid-speech', 'ignores cancel()'],
    ['LateWordsTTS', 'gives Words in order', 'times words past the audio'],
  ])('%s fails "%s…" (it %s)', (suite, test) => {
    expect(failed.get(suite) ?? []).toContainEqual(expect.stringContaining(test))
  })
})
