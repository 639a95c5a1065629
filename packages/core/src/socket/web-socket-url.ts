/**
 * The WebSocket URL of `path` under an API's `baseURL` (its origin, possibly with a path prefix
 * for a proxy or a version: `https://api.openai.com/v1`): `https:` becomes `wss:`, `http:` becomes
 * `ws:` (a local fake or proxy is reached without TLS), and the query parameters that are not
 * undefined are added in order. Nothing secret belongs in it: keys go in headers.
 *
 * @example
 * webSocketURL('https://api.example.com/v1', '/speech/stream', { model: 'fast', lang: undefined })
 * // 'wss://api.example.com/v1/speech/stream?model=fast'
 */
export function webSocketURL(
  baseURL: string,
  path: string,
  query: Record<string, string | number | boolean | undefined> = {}
): string {
  const base = baseURL.endsWith('/') ? baseURL : `${baseURL}/`
  const url = new URL(path.replace(/^\/+/, ''), base)
  if (url.protocol === 'https:') url.protocol = 'wss:'
  else if (url.protocol === 'http:') url.protocol = 'ws:'
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value))
  }
  return url.toString()
}
