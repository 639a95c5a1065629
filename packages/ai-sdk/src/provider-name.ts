import type { LanguageModel } from 'ai'

/** AI SDK provider ids (the part before the dot) as OpenTelemetry's GenAI conventions name them. */
const GEN_AI_NAMES: Readonly<Record<string, string>> = {
  openai: 'openai',
  azure: 'azure.ai.openai',
  anthropic: 'anthropic',
  mistral: 'mistral_ai',
  google: 'gcp.gemini',
  'google-vertex': 'gcp.vertex_ai',
  'amazon-bedrock': 'aws.bedrock',
  groq: 'groq',
  deepseek: 'deepseek',
  xai: 'x_ai',
  perplexity: 'perplexity',
  cohere: 'cohere',
}

/**
 * The provider of an AI SDK model, as tracing names it: `openai` for `openai.responses`,
 * `mistral_ai` for `mistral.chat`..., the SDK's own id for the others; a model given by its id
 * string (the AI Gateway) names its provider first (`anthropic/claude-...`).
 */
export function aiSdkProviderName(model: LanguageModel): string {
  const id = typeof model === 'string' ? model.split('/')[0]! : model.provider.split('.')[0]!
  return GEN_AI_NAMES[id] ?? id
}
