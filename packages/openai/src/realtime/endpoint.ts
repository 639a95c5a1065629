import { webSocketURL } from '@openmic/core/provider'

/**
 * The WebSocket URL of a speech-to-speech session with `model` under an API base URL (the SDK's
 * `baseURL`): `https://api.openai.com/v1` gives `wss://api.openai.com/v1/realtime?model=gpt-realtime`.
 * `http` becomes `ws`, so a local server (or a fake one) is reached without TLS.
 */
export function realtimeSessionURL(baseURL: string, model: string): string {
  return webSocketURL(baseURL, 'realtime', { model })
}
