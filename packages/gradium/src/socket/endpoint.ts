/** Where Gradium's API is served. */
export type GradiumRegion = 'eu' | 'us'

/** The origin of Gradium's API in `region`: `https://eu.api.gradium.ai`. */
export function regionBaseURL(region: GradiumRegion = 'eu'): string {
  return `https://${region}.api.gradium.ai`
}

/**
 * The WebSocket URL of one of Gradium's speech endpoints (`speech/asr`, `speech/tts`) under a base
 * URL (default: the region's): its path under the base's `/api/`, `https:` → `wss:` and
 * `http:` → `ws:`.
 */
export function speechURL(
  endpoint: 'asr' | 'tts',
  baseURL: string | undefined,
  region: GradiumRegion | undefined
): string {
  const base = baseURL ?? regionBaseURL(region)
  const url = new URL(`api/speech/${endpoint}`, base.endsWith('/') ? base : `${base}/`)
  if (url.protocol === 'https:') url.protocol = 'wss:'
  else if (url.protocol === 'http:') url.protocol = 'ws:'
  return url.toString()
}
