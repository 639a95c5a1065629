import type { MicdropToolCall } from '@openmic/client'
import { useClientEvent } from './use-client-event.js'

/** Runs `callback` with each tool call the server reports (tools declared with `emitOutput`). */
export function useMicdropToolCall(callback: (toolCall: MicdropToolCall) => void): void {
  useClientEvent('ToolCall', callback)
}
