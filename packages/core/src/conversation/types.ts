/** Free-form data attached to a conversation message (extracted values, flags such as `incomplete`). */
export type MicdropAnswerMetadata = {
  [key: string]: any
}

/** A text message of the conversation: the system prompt, something the user said, or an answer. */
export interface MicdropConversationMessage<
  Data extends MicdropAnswerMetadata = MicdropAnswerMetadata,
> {
  role: 'system' | 'user' | 'assistant'
  content: string
  metadata?: Data
}

/** A tool call made by the model. `parameters` is the JSON string of the arguments, as the model sent it. */
export interface MicdropConversationToolCall {
  role: 'tool_call'
  toolCallId: string
  toolName: string
  parameters: string
  /** Tool items carry no text. Declared so that `item.content` type-checks on any item. */
  content?: undefined
}

/** The result of a tool call. `output` is a JSON string (`{"error": "..."}` when the call failed). */
export interface MicdropConversationToolResult {
  role: 'tool_result'
  toolCallId: string
  toolName: string
  output: string
  /** Tool items carry no text. Declared so that `item.content` type-checks on any item. */
  content?: undefined
}

export type MicdropConversationToolItem =
  MicdropConversationToolCall | MicdropConversationToolResult

export type MicdropConversationItem = MicdropConversationMessage | MicdropConversationToolItem

/** The whole history of a call, starting with the system message. */
export type MicdropConversation = Array<MicdropConversationItem>

/** What the `ToolCall` event carries for a tool declared with `emitOutput: true`. */
export interface MicdropToolCall {
  name: string
  parameters: any
  output: any
}

/** Summary of a finished call. */
export interface MicdropCallSummary {
  conversation: MicdropConversation
  /** Duration of the call, in seconds. */
  duration: number
}
