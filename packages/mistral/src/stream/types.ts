/**
 * One chunk of Mistral's chat stream as it comes on the wire (snake_case), typed loosely: every
 * field may be missing or null, as OpenAI-compatible servers send them (e.g. a last chunk with
 * `"choices": []` and `"usage": null`, or a `usage` chunk without choices).
 */
export interface MistralChunk {
  choices?: Array<MistralChoice | null> | null
  /** The tokens used, on the last chunk. */
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null
}

export interface MistralChoice {
  delta?: {
    content?: string | MistralContentPart[] | null
    tool_calls?: MistralToolCallPiece[] | null
  } | null
  finish_reason?: string | null
}

/** A typed part of `delta.content`: spoken text, or the model's thinking. */
export type MistralContentPart =
  | { type: 'text'; text?: string | null }
  | { type: 'thinking'; thinking?: Array<{ type?: string; text?: string | null }> | null }
  | { type?: string }

/** A tool call, whole (Mistral) or a piece of one (compatible servers). */
export interface MistralToolCallPiece {
  id?: string | null
  index?: number | null
  function?: { name?: string | null; arguments?: string | Record<string, unknown> | null } | null
}
