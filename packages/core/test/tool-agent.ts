import type { PassThrough } from 'node:stream'
import { Agent } from '../src/agent/Agent.js'
import type { AgentOptions } from '../src/agent/types.js'
import type { MicdropConversationToolCall } from '../src/conversation/types.js'

/** An agent that exposes the protected tool and extraction members for tests. */
export class ToolAgent extends Agent {
  constructor(options: Partial<AgentOptions> = {}) {
    super({ systemPrompt: 'Tools test.', ...options })
  }
  protected async generateAnswer(_stream: PassThrough) {}
  cancel() {
    this.abortAnswer()
  }
  run(call: Omit<MicdropConversationToolCall, 'role'>) {
    return this.executeTool({ role: 'tool_call', ...call })
  }
  defaultTools() {
    return this.getDefaultTools()
  }
  extractOptions() {
    return this.getExtractOptions()
  }
}
