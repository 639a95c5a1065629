const TOOL_CALL_ID = /^[a-zA-Z0-9]{9}$/

interface WireMessage {
  role?: string
  content?: unknown
  prefix?: boolean
  tool_calls?: Array<{ id?: string }> | null
  tool_call_id?: string | null
}

/**
 * Why Mistral would reject this chat request body with a 400, in its own words, or undefined.
 * Checks the rules that differ from OpenAI's: role order around tool messages, the last role,
 * assistant messages without content or calls, tool call ids of 9 letters or digits, and as many
 * tool messages as calls.
 */
export function mistralRequestProblem(body: unknown): string | undefined {
  const messages = (body as { messages?: WireMessage[] } | undefined)?.messages
  if (!Array.isArray(messages) || messages.length === 0) return 'messages must not be empty'
  let previous: WireMessage | undefined
  let openCalls = 0
  for (const message of messages) {
    const role = message.role ?? 'unknown'
    const problem =
      orderProblem(previous, role, openCalls) ?? idProblem(message) ?? contentProblem(message)
    if (problem) return problem
    if (role === 'tool') openCalls--
    else if (openCalls !== 0) return 'Not the same number of function calls and responses'
    if (role === 'assistant') openCalls = message.tool_calls?.length ?? 0
    previous = message
  }
  if (openCalls !== 0) return 'Not the same number of function calls and responses'
  const last = messages.at(-1)!
  const lastRole = last.role ?? 'unknown'
  if (lastRole === 'user' || lastRole === 'tool' || (lastRole === 'assistant' && last.prefix)) {
    return undefined
  }
  return `Expected last role User or Tool (or Assistant with prefix True) for serving but got ${lastRole}`
}

function orderProblem(previous: WireMessage | undefined, role: string, openCalls: number) {
  const previousRole = previous?.role
  if (role === 'tool' && openCalls <= 0) {
    return `Unexpected role 'tool' after role '${previousRole ?? 'none'}'`
  }
  if (previousRole === 'tool' && role !== 'tool' && role !== 'assistant') {
    return `Unexpected role '${role}' after role 'tool'`
  }
  return undefined
}

function idProblem(message: WireMessage) {
  const ids = [...(message.tool_calls ?? []).map((call) => call.id), message.tool_call_id]
  for (const id of ids) {
    if (id !== undefined && id !== null && !TOOL_CALL_ID.test(id)) {
      return `Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`
    }
  }
  return undefined
}

function contentProblem(message: WireMessage) {
  if (message.role !== 'assistant') return undefined
  const empty = message.content === undefined || message.content === null || message.content === ''
  if (empty && !message.tool_calls?.length) {
    return 'Assistant message must have either content or tool_calls, but not none.'
  }
  return undefined
}
