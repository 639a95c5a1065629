import type { IncomingMessage } from 'node:http'
import type { UpgradeRejection } from './websocket-fake-server.js'

/** ElevenLabs' error body: `{ detail }`. */
export function elevenLabsErrorBody(message: string): unknown {
  return { detail: message }
}

/** The 401 ElevenLabs answers an upgrade whose `xi-api-key` is not `apiKey` (any key if unset). */
export function elevenLabsKeyCheck(
  req: IncomingMessage,
  apiKey: string | undefined
): UpgradeRejection | undefined {
  if (apiKey === undefined || req.headers['xi-api-key'] === apiKey) return undefined
  return {
    status: 401,
    body: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } },
  }
}
