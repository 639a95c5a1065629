// The AI SDK's raw model: `streamText` on `@ai-sdk/openai`'s Responses model, as AiSdkAgent
// calls it.
import { createOpenAI } from '@ai-sdk/openai'
import { streamText } from 'ai'
import type { RawModel } from '../raw-chain.js'

export function aiSdkModel(baseURL: string): RawModel {
  const model = createOpenAI({ apiKey: 'k', baseURL }).responses('gpt-4.1-mini')
  return async (messages, onText) => {
    const result = streamText({
      model,
      messages,
      // The conversation holds the system prompt as its first message.
      allowSystemInMessages: true,
      maxRetries: 0,
    })
    for await (const text of result.textStream) onText(text)
  }
}
