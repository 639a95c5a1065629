export { convertToChatMessages } from './convert-to-chat-messages.js'
export { mapChatStream } from './map-chat-stream.js'
