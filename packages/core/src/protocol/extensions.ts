/**
 * openmic's client → server extension messages: a text frame `<Name> <json>`. A Micdrop server
 * ignores them, so an openmic client works with it; an openmic server works without them.
 */
export const MicdropClientExtensions = {
  /**
   * Sent just before `StartSpeaking` (and `Mute`), and when playback runs out if the client's
   * `Hello` said so: how far the client played the assistant audio. Payload {@link MicdropPlayed}.
   */
  Played: 'Played',
  /**
   * Sent once per connection, first (right after the params, if any): what the client does.
   * Payload {@link MicdropClientHello}; an openmic server answers with its own `Hello`.
   */
  Hello: 'Hello',
  /**
   * Bare word, inside an utterance: the user paused (a short silence began; the client's end of
   * speech is not decided). Followed by `ResumeSpeaking` (they went on: the same turn) or
   * `StopSpeaking`. Send it only to a server whose `Hello` says `preemptive`: it starts the
   * answer here and holds all of it until `StopSpeaking`.
   */
  PauseSpeaking: 'PauseSpeaking',
  /** Bare word, after `PauseSpeaking`: the user went on speaking in the same turn. */
  ResumeSpeaking: 'ResumeSpeaking',
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

/** Payload of the client's `Hello`. */
export interface MicdropClientHello {
  /**
   * The client shows the assistant's words from `Caption` frames as its playback reaches them, so
   * it takes each assistant `Message` once final (heard to its end, or cut to what was heard)
   * instead of when the answer starts playing.
   */
  captions?: boolean
  /**
   * The client also sends `Played` when its playback runs out (everything received was played), so
   * the server knows when an answer was heard to its end instead of estimating it.
   */
  reportsPlaybackEnd?: boolean
}

/** A client extension message parsed from a text frame. */
export type MicdropClientExtension =
  { type: 'Played'; played: MicdropPlayed } | { type: 'Hello'; hello: MicdropClientHello }

/** `Played {"ms":…}`. */
export function encodePlayed(played: MicdropPlayed): string {
  return `${MicdropClientExtensions.Played} ${JSON.stringify(played)}`
}

/** `Hello {"captions":…}`. */
export function encodeClientHello(hello: MicdropClientHello): string {
  return `${MicdropClientExtensions.Hello} ${JSON.stringify(hello)}`
}

/**
 * Parses an extension message; `undefined` for anything else (a command, an unknown name, a
 * payload that is not valid). Never throws.
 */
export function parseClientExtension(text: string): MicdropClientExtension | undefined {
  const space = text.indexOf(' ')
  if (space === -1) return undefined
  const name = text.slice(0, space)
  if (name !== MicdropClientExtensions.Played && name !== MicdropClientExtensions.Hello) {
    return undefined
  }
  let payload: unknown
  try {
    payload = JSON.parse(text.slice(space + 1))
  } catch {
    return undefined
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined
  const fields = payload as Record<string, unknown>
  if (name === MicdropClientExtensions.Hello) {
    return {
      type: 'Hello',
      hello: {
        captions: fields.captions === true,
        reportsPlaybackEnd: fields.reportsPlaybackEnd === true,
      },
    }
  }
  const { ms, paused } = fields
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return undefined
  return { type: 'Played', played: { ms, paused: paused === true } }
}
