import { it } from 'vitest'
import { simulateCall, formatFailure, type CallScript } from '../src/simulator/index.js'
it('x', async () => {
const goodbye: CallScript = {
  client: 'openmic',
  agent: { answers: [{ text: 'Goodbye and have a lovely day.', tools: ['end_call'] }] },
  steps: [{ say: 'bye', ms: 500 }, { waitFor: 'quiet' }],
}
  const result = await simulateCall(goodbye)
  console.log(formatFailure(goodbye, result), result.closeCode)
})
