// The README's example (there imported from '@openmic/testing/simulator'): it must run and pass.
import type { PassThrough } from 'node:stream'
import { Agent } from '@openmic/core'
import { MicdropServer } from '@openmic/server'
import { formatFailure, simulateCall, type CallScript } from '../../src/simulator/index.js'
import { expect, it } from 'vitest'

/** The agent under test: it "thinks" 50 ms per word (on the simulator's virtual clock). */
class WeatherAgent extends Agent {
  constructor() {
    super({ systemPrompt: 'You tell the weather.' })
  }

  protected async generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void> {
    const text = 'It is sunny in Paris today.'
    for (const word of text.split(' ')) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      if (signal.aborted) return
      stream.write(`${word} `)
    }
    this.addAssistantMessage(text)
  }

  cancel(): void {}
}

it('answers a question and keeps every invariant', async () => {
  const script: CallScript = {
    client: 'openmic',
    latencyMs: 40,
    steps: [
      { say: 'what is the weather like', ms: 1200 },
      { waitFor: 'quiet' },
      { say: 'thanks', ms: 500 },
      { waitFor: 'quiet' },
    ],
  }
  const result = await simulateCall(script, {
    server: (socket, { stt, tts, store, conversationId, logger }) =>
      new MicdropServer(socket, {
        agent: new WeatherAgent(),
        stt,
        tts,
        store,
        conversationId,
        logger,
      }),
  })
  expect(result.violations, formatFailure(script, result)).toEqual([])
  expect(result.conversation.agent.at(-1)).toEqual({
    role: 'assistant',
    content: 'It is sunny in Paris today.',
  })
})
