import type { MicdropConversationToolCall } from '../conversation/types.js'

/** One streamed piece of a tool call, as chat-completions style APIs send them. */
export interface ToolCallDelta {
  /** What ties the pieces of one call together: the `index` field, else the call id. */
  key: string | number
  id?: string
  name?: string
  /** A fragment of the JSON arguments, appended to the previous ones. */
  arguments?: string
}

interface PendingCall {
  id: string
  name: string
  arguments: string
}

/**
 * Assembles tool calls whose id, name and arguments arrive in pieces across stream chunks
 * (OpenAI chat completions, Mistral, compatible servers). Calls come out in the order they started.
 */
export class ToolCallAssembler {
  /** Made at the first piece: most answers call no tool, and each object made delays them. */
  private pending?: Map<string | number, PendingCall>

  add(delta: ToolCallDelta): void {
    const pending = (this.pending ??= new Map())
    let call = pending.get(delta.key)
    if (!call) {
      call = { id: '', name: '', arguments: '' }
      pending.set(delta.key, call)
    }
    if (delta.id && !call.id) call.id = delta.id
    if (delta.name && !call.name) call.name = delta.name
    if (delta.arguments) call.arguments += delta.arguments
  }

  get size(): number {
    return this.pending?.size ?? 0
  }

  /**
   * The complete calls, ready for `executeTool`. A call without an id gets a generated one; empty
   * arguments become `{}` (models send nothing for a tool without parameters).
   */
  finish(): MicdropConversationToolCall[] {
    const pending = this.pending
    if (pending === undefined || pending.size === 0) return []
    const calls = [...pending.values()].map((call, index) => ({
      role: 'tool_call' as const,
      toolCallId: call.id || `call_${Date.now().toString(36)}_${index}`,
      toolName: call.name,
      parameters: call.arguments.trim() === '' ? '{}' : call.arguments,
    }))
    pending.clear()
    return calls
  }
}
