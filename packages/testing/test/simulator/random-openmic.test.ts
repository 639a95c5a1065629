import { expect, it } from 'vitest'
import { RANDOM_CALLS, runRandomCalls } from './random-calls.js'

it(`${RANDOM_CALLS} random calls with the openmic client keep every invariant`, async () => {
  const { counts, reports, seconds } = await runRandomCalls('openmic')
  console.info(
    `openmic: ${RANDOM_CALLS} calls in ${seconds.toFixed(1)} s (${Math.round(RANDOM_CALLS / seconds)} calls/s)`
  )
  expect(counts, reports.join('\n\n')).toEqual({})
}, 300_000)
