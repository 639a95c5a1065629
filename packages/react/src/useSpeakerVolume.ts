import { useMicdropClient } from './MicdropProvider.js'
import { useLevel } from './use-level.js'

export interface SpeakerVolume {
  /** Level of what the speaker plays, in dBFS rounded to 1 dB: -100 (silence) to 0 (full scale). */
  speakerVolume: number
  /** Highest `speakerVolume` since the component mounted, in dBFS. */
  maxSpeakerVolume: number
}

/** How often the speaker's level is read, in ms. */
export const SPEAKER_VOLUME_INTERVAL_MS = 50

/**
 * The level of the assistant's voice, in **dBFS** like {@link useMicVolume} (`-100` silence, `0`
 * full scale), read from the audio output every {@link SPEAKER_VOLUME_INTERVAL_MS} ms.
 */
export function useSpeakerVolume(): SpeakerVolume {
  const client = useMicdropClient()
  const { volume, max } = useLevel(
    (onLevel) => {
      const timer = setInterval(
        () => onLevel(client.speaker.getVolume()),
        SPEAKER_VOLUME_INTERVAL_MS
      )
      return () => clearInterval(timer)
    },
    [client]
  )
  return { speakerVolume: volume, maxSpeakerVolume: max }
}
