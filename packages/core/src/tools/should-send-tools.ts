import type { MicdropConversation } from '../conversation/types.js'
import type { Tool } from './Tool.js'

/**
 * Whether a model call offers the agent's tools: never while the conversation holds only the system
 * prompt (the agent opening the call must speak, not act, as Micdrop users expect), and not when
 * there are none. Every provider agent follows this rule.
 */
export function shouldSendTools(
  conversation: MicdropConversation,
  tools: readonly Tool[]
): boolean {
  return tools.length > 0 && conversation.some((item) => item.role !== 'system')
}
