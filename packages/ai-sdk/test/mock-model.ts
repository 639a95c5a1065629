import { APICallError } from 'ai'
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test'

/** One part of a language model's stream, as a provider hands it to the AI SDK. */
export type ModelPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P>
    ? P
    : never

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

/** The end of a model stream. */
export const finish = (unified: 'stop' | 'tool-calls' = 'stop'): ModelPart => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage,
})

/** A model stream saying `deltas`. */
export function textStream(...deltas: string[]): ModelPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...deltas.map((delta): ModelPart => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    finish(),
  ]
}

/** A model stream saying `text` (if any), then calling a tool with `input` (raw JSON text). */
export function toolCallStream(
  call: { id: string; name: string; input: string },
  text?: string
): ModelPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    ...(text
      ? ([
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: text },
          { type: 'text-end', id: 't' },
        ] as ModelPart[])
      : []),
    { type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input },
    finish('tool-calls'),
  ]
}

/** What a scripted model call does: stream these parts, or fail the request with this error. */
export type MockReply = ModelPart[] | Error

/**
 * The AI SDK's own mock model, answering each call with the next reply of `replies`. Its
 * `doStreamCalls` are the calls the AI SDK made (prompt, tools, settings, abort signal).
 */
export function mockModel(...replies: MockReply[]): MockLanguageModelV3 {
  let index = 0
  return new MockLanguageModelV3({
    doStream: async () => {
      const reply = replies[index++]
      if (reply === undefined) throw new Error(`No reply scripted for model call ${index}`)
      if (reply instanceof Error) throw reply
      return { stream: convertArrayToReadableStream(reply) }
    },
  })
}

/** An HTTP error as AI SDK providers throw it. */
export function httpError(statusCode: number, headers: Record<string, string> = {}) {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'https://api.example.com/v1/chat',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: '{"error":{"message":"nope"}}',
  })
}
