import type { ChatCompletionStreamRequest } from '@mistralai/mistralai/models/components'

/** The request `chat.stream` takes (camelCase, as the SDK spells it). */
export type MistralChatRequest = ChatCompletionStreamRequest

/** One message of a Mistral chat request. */
export type MistralMessage = MistralChatRequest['messages'][number]

/** One tool of a Mistral chat request. */
export type MistralTool = NonNullable<MistralChatRequest['tools']>[number]
