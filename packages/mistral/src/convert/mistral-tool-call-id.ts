import { createHash } from 'node:crypto'

const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/

/**
 * The tool call id to send to Mistral, which only accepts 9 letters or digits. Ids Mistral gave
 * pass unchanged; others (from another provider, a fallback agent, or generated) become a stable
 * 9-character hash, the same for the call and its result.
 */
export function toMistralToolCallId(id: string): string {
  if (MISTRAL_ID.test(id)) return id
  const hash = createHash('sha256')
    .update(id)
    .digest('base64')
    .replace(/[^a-zA-Z0-9]/g, '')
  return hash.slice(0, 9)
}
