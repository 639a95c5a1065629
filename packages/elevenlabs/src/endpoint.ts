/** The API's origin when no `baseURL` is given. */
export const ELEVENLABS_BASE_URL = 'https://api.elevenlabs.io'

/**
 * The WebSocket URL of an API path under a `baseURL` (the API's origin, optionally with a path
 * prefix for a proxy): `https:` becomes `wss:`, `http:` becomes `ws:`, and the query parameters
 * that are not undefined are added in order.
 */
export function webSocketURL(
  baseURL: string,
  path: string,
  query: Record<string, string | number | boolean | undefined>
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
