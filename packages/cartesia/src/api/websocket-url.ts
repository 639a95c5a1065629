/** Where Cartesia's API lives. */
export const CARTESIA_BASE_URL = 'https://api.cartesia.ai'

/**
 * The WebSocket URL of `path` under `baseURL` (the origin of the API, possibly with a path
 * prefix): `https:` → `wss:`, `http:` → `ws:`. Nothing secret goes in it: the key is a header.
 */
export function websocketURL(
  baseURL: string = CARTESIA_BASE_URL,
  path: string,
  query: Record<string, string | number | undefined> = {}
): string {
  const base = baseURL.endsWith('/') ? baseURL : `${baseURL}/`
  const url = new URL(path.replace(/^\//, ''), base)
  if (url.protocol === 'https:') url.protocol = 'wss:'
  else if (url.protocol === 'http:') url.protocol = 'ws:'
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.set(name, String(value))
  return url.toString()
}
