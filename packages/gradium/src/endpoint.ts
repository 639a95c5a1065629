import { webSocketURL } from '@openmic/core/provider'

/** Where Gradium's API is served. */
export type GradiumRegion = 'eu' | 'us'

/**
 * The origin of Gradium's API: `https://api.gradium.ai` (the host Gradium's docs give), or the
 * host of a region, `https://eu.api.gradium.ai` (the hosts Micdrop and older docs use).
 */
export function regionBaseURL(region?: GradiumRegion): string {
  return region ? `https://${region}.api.gradium.ai` : 'https://api.gradium.ai'
}

/**
 * The WebSocket URL of one of Gradium's speech endpoints (`speech/asr`, `speech/tts`) under a base
 * URL (default: the region's host, else `api.gradium.ai`): its path under the base's `/api/`, `https:` → `wss:` and
 * `http:` → `ws:`.
 */
export function speechURL(
  endpoint: 'asr' | 'tts',
  baseURL: string | undefined,
  region: GradiumRegion | undefined
): string {
  return webSocketURL(baseURL ?? regionBaseURL(region), `api/speech/${endpoint}`)
}
