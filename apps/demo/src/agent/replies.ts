import type { MicdropConversationItem } from '@openmic/core'
import { TIME_TOOL_NAME } from './time-tool.js'

/** What the local agent does next: call a tool, or say something. */
export type Reply = { type: 'tool'; toolName: string } | { type: 'text'; text: string }

export const GREETING =
  "Hello! I'm the openmic demo assistant. Ask me what time it is, or say goodbye to end the call."
export const GOODBYE = 'Goodbye! Thanks for trying openmic.'

const ASKS_TIME = /\b(what(?:'s| is)? (?:the )?time|time is it|tell me the time|current time)\b/i
const SAYS_GOODBYE = /\b(good ?bye|bye|hang up|end (?:the )?call|see you)\b/i

/**
 * Decides the next step from the conversation, as a model would: after a tool result, speak from it;
 * otherwise look at what the user said last.
 */
export function decideReply(conversation: MicdropConversationItem[]): Reply {
  const last = conversation.at(-1)
  if (last?.role === 'tool_result')
    return { type: 'text', text: speakToolResult(last.toolName, last.output) }

  const lastUser = conversation.findLast((item) => item.role === 'user')
  if (!lastUser) return { type: 'text', text: GREETING }

  const said = lastUser.content ?? ''
  if (SAYS_GOODBYE.test(said)) return { type: 'tool', toolName: 'end_call' }
  if (ASKS_TIME.test(said)) return { type: 'tool', toolName: TIME_TOOL_NAME }
  return {
    type: 'text',
    text: `You said: "${said}". I'm a small offline assistant: ask me what time it is, or say goodbye.`,
  }
}

function speakToolResult(toolName: string, output: string): string {
  if (toolName === 'end_call') return GOODBYE
  if (toolName === TIME_TOOL_NAME) {
    const { time } = JSON.parse(output) as { time?: string }
    return time ? `It is ${time}.` : 'Sorry, I could not read the clock.'
  }
  return 'Done.'
}
