import type { AgentOptions } from '../agent/types.js'
import type { Tool } from './Tool.js'

export const END_CALL_TOOL_NAME = 'end_call'
export const SEMANTIC_TURN_TOOL_NAME = 'semantic_turn'
export const IGNORE_USER_NOISE_TOOL_NAME = 'ignore_user_noise'

export const DEFAULT_END_CALL_DESCRIPTION =
  'End the call. Call this only when the user clearly asks to end the call or says goodbye.'
export const DEFAULT_SEMANTIC_TURN_DESCRIPTION =
  'Wait for the user to finish. Call this only when the last user message is obviously an ' +
  'unfinished sentence and answering now would interrupt them.'
export const DEFAULT_IGNORE_USER_NOISE_DESCRIPTION =
  'Ignore the last user message. Call this only when it is a mere interjection or sound ' +
  '(for example "Uh", "Hmm", "Ah", a cough) that carries no meaning such as agreeing, ' +
  'refusing or asking something.'

/**
 * The agent's protected methods the default tools call. Tools receive the agent that runs them
 * (not the one that created them), so they stay correct when shared, as FallbackAgent does.
 */
interface DefaultToolActions {
  endCall(): void
  skipAnswer(): void
  cancelLastUserMessage(): void
}

const actionsOf = (agent: unknown) => agent as DefaultToolActions

function describe(option: boolean | string, fallback: string): string {
  return typeof option === 'string' ? option : fallback
}

/**
 * The tools enabled by `autoEndCall`, `autoSemanticTurn` and `autoIgnoreUserNoise`. A string option
 * replaces the tool's default description.
 */
export function createDefaultTools(options: AgentOptions): Tool[] {
  const tools: Tool[] = []
  if (options.autoEndCall) {
    tools.push({
      name: END_CALL_TOOL_NAME,
      description: describe(options.autoEndCall, DEFAULT_END_CALL_DESCRIPTION),
      execute: (_input, agent) => actionsOf(agent).endCall(),
    })
  }
  if (options.autoSemanticTurn) {
    tools.push({
      name: SEMANTIC_TURN_TOOL_NAME,
      description: describe(options.autoSemanticTurn, DEFAULT_SEMANTIC_TURN_DESCRIPTION),
      skipAnswer: true,
      execute: (_input, agent) => actionsOf(agent).skipAnswer(),
    })
  }
  if (options.autoIgnoreUserNoise) {
    tools.push({
      name: IGNORE_USER_NOISE_TOOL_NAME,
      description: describe(options.autoIgnoreUserNoise, DEFAULT_IGNORE_USER_NOISE_DESCRIPTION),
      skipAnswer: true,
      execute: (_input, agent) => {
        actionsOf(agent).cancelLastUserMessage()
        actionsOf(agent).skipAnswer()
      },
    })
  }
  return tools
}
