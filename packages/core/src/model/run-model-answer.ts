import { runModelCall } from './run-model-call.js'
import type { ModelAnswerHost } from './types.js'

/**
 * The step loop every provider shares: call the model, save what it said, run its tool calls, and
 * call it again with the results until it answers without tools, a tool asks to skip the answer,
 * the answer is cancelled, or `maxSteps` model calls were made.
 */
export async function runModelAnswer(host: ModelAnswerHost): Promise<void> {
  const { maxSteps } = host.limits
  // The text of one call is spoken right after the text of the one before: a space between them
  let lead = ''
  for (let step = 0; step < maxSteps; step++) {
    const { text, toolCalls } = await runModelCall(host, step, lead)
    if (host.signal.aborted) return
    if (text.trim() !== '') lead = /\s$/.test(text) ? '' : ' '
    host.saveAnswer(text)
    if (toolCalls.length === 0) return

    let skipAnswer = false
    for (const toolCall of toolCalls) {
      if (host.signal.aborted) return
      const result = await host.executeTool(toolCall)
      if (result.skipAnswer) skipAnswer = true
    }
    if (skipAnswer || host.signal.aborted) return
  }
  host.log(`Stopped after ${maxSteps} model calls (maxSteps): the model kept calling tools`)
}
