export { prepareChatTools, prepareResponsesTools, shouldSendTools } from './prepare-tools.js'
