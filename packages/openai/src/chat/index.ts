export { convertToChatMessages } from './convert-to-chat-messages.js'
export { ChatStreamMapper } from './chat-stream-mapper.js'
