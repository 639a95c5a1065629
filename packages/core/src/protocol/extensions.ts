/**
 * openmic's client → server extension messages: a text frame `<Name> <json>`. A Micdrop server
 * ignores them, so an openmic client works with it; an openmic server works without them.
 */
export const MicdropClientExtensions = {
  /**
   * Sent just before `StartSpeaking` (and `Mute`): how far the client played the assistant audio.
   * Payload {@link MicdropPlayed}.
   */
  Played: 'Played',
} as const

/** Payload of `Played`. */
export interface MicdropPlayed {
  /**
   * Position reached in the call's assistant audio, in ms: all assistant audio received on this
   * connection (16 kHz: bytes / 32), minus what is queued and not played yet.
   */
  ms: number
  /**
   * The client paused playback and keeps the rest until the server sends `Resume` (play it) or
   * `Interrupt` (drop it); without it, the client dropped the rest.
   */
  paused?: boolean
}

/** A client extension message parsed from a text frame. */
export type MicdropClientExtension = { type: 'Played'; played: MicdropPlayed }

/** `Played {"ms":…}`. */
export function encodePlayed(played: MicdropPlayed): string {
  return `${MicdropClientExtensions.Played} ${JSON.stringify(played)}`
}

/**
 * Parses an extension message; `undefined` for anything else (a command, an unknown name, a
 * payload that is not valid). Never throws.
 */
export function parseClientExtension(text: string): MicdropClientExtension | undefined {
  const space = text.indexOf(' ')
  if (space === -1 || text.slice(0, space) !== MicdropClientExtensions.Played) return undefined
  let payload: unknown
  try {
    payload = JSON.parse(text.slice(space + 1))
  } catch {
    return undefined
  }
  if (typeof payload !== 'object' || payload === null) return undefined
  const { ms, paused } = payload as Record<string, unknown>
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return undefined
  return { type: 'Played', played: { ms, paused: paused === true } }
}
