/** Gladia's API, when no `baseURL` is given. */
export const DEFAULT_GLADIA_BASE_URL = 'https://api.gladia.io'

/** The URL that creates a live session (`POST /v2/live`), in a region when one is given. */
export function liveSessionURL(baseURL: string, region: string | undefined): string {
  const url = new URL(`${baseURL.replace(/\/+$/, '')}/v2/live`)
  if (region) url.searchParams.set('region', region)
  return url.toString()
}
