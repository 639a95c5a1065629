/**
 * The WebSocket URL of Mistral's realtime transcription for a `serverURL` (as MistralAgent's, default
 * `https://api.mistral.ai`): its path under the server's, `https:` → `wss:` and `http:` → `ws:`.
 */
export function realtimeURL(serverURL = 'https://api.mistral.ai', model: string): string {
  const base = serverURL.endsWith('/') ? serverURL : `${serverURL}/`
  const url = new URL('v1/audio/transcriptions/realtime', base)
  if (url.protocol === 'https:') url.protocol = 'wss:'
  else if (url.protocol === 'http:') url.protocol = 'ws:'
  url.searchParams.set('model', model)
  return url.toString()
}
