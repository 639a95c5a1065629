/**
 * The WebSocket URL of realtime transcription for an API base URL (the SDK's `baseURL`):
 * `https://api.openai.com/v1` gives `wss://api.openai.com/v1/realtime?intent=transcription`.
 * `http` becomes `ws`, so a local server (or a fake one) is reached without TLS.
 */
export function transcriptionURL(baseURL: string): string {
  const url = realtimeSocketURL(baseURL)
  url.searchParams.set('intent', 'transcription')
  return url.toString()
}

/**
 * The WebSocket URL of a speech-to-speech session with `model`, as {@link transcriptionURL}:
 * `wss://api.openai.com/v1/realtime?model=gpt-realtime`.
 */
export function conversationURL(baseURL: string, model: string): string {
  const url = realtimeSocketURL(baseURL)
  url.searchParams.set('model', model)
  return url.toString()
}

/** `<baseURL>/realtime`, `http(s)` turned into `ws(s)`. */
function realtimeSocketURL(baseURL: string): URL {
  const url = new URL(`${baseURL.replace(/\/+$/, '')}/realtime`)
  if (url.protocol === 'https:') url.protocol = 'wss:'
  else if (url.protocol === 'http:') url.protocol = 'ws:'
  return url
}
