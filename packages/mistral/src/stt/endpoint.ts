import { webSocketURL } from '@openmic/core/provider'

/** Mistral's API, when no `serverURL` is given. */
export const MISTRAL_SERVER_URL = 'https://api.mistral.ai'

/**
 * The WebSocket URL of Mistral's realtime transcription for a `serverURL` (as MistralAgent's, default
 * `https://api.mistral.ai`): its path under the server's, `https:` → `wss:` and `http:` → `ws:`.
 */
export function realtimeURL(serverURL = MISTRAL_SERVER_URL, model: string): string {
  return webSocketURL(serverURL, 'v1/audio/transcriptions/realtime', { model })
}
