import type { MicdropConversationItem } from '@openmic/client'

const WHO: Record<MicdropConversationItem['role'], string> = {
  system: 'System',
  user: 'You',
  assistant: 'Assistant',
  tool_call: 'Tool call',
  tool_result: 'Tool result',
}

function describe(item: MicdropConversationItem): string {
  if (item.role === 'tool_call') return `${item.toolName}(${item.parameters})`
  if (item.role === 'tool_result') return `${item.toolName} → ${item.output}`
  return item.content
}

/**
 * The call's conversation: user and assistant messages, tool calls and their results, and under
 * them the answer being spoken, as far as it was heard (`caption`), until its message replaces it.
 */
export function Conversation({
  items,
  caption,
  ended,
}: {
  items: MicdropConversationItem[]
  caption: string
  ended: boolean
}) {
  const visible = items.filter((item) => item.role !== 'system')
  return (
    <section className="conversation" aria-label="Conversation">
      <h2>Conversation</h2>
      {visible.length === 0 && !caption && <p className="ended">Start a call and say something.</p>}
      {visible.map((item, index) => (
        <div
          key={index}
          className="message"
          data-role={item.role}
          data-testid={`message-${item.role}`}
        >
          <span className="who">{WHO[item.role]}</span>
          {describe(item)}
        </div>
      ))}
      {caption && (
        <div
          className="message in-progress"
          data-role="assistant"
          data-testid="caption"
          aria-live="polite"
        >
          <span className="who">{WHO.assistant}</span>
          {caption}
        </div>
      )}
      {ended && (
        <p className="ended" data-testid="call-ended">
          The assistant ended the call.
        </p>
      )}
    </section>
  )
}
