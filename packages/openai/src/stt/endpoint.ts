import { webSocketURL } from '@openmic/core/provider'

/**
 * The WebSocket URL of realtime transcription for an API base URL (the SDK's `baseURL`):
 * `https://api.openai.com/v1` gives `wss://api.openai.com/v1/realtime?intent=transcription`.
 * `http` becomes `ws`, so a local server (or a fake one) is reached without TLS.
 */
export function transcriptionURL(baseURL: string): string {
  return webSocketURL(baseURL, 'realtime', { intent: 'transcription' })
}
