import { useMicdropClient } from './MicdropProvider.js'
import { useLevel } from './use-level.js'

export interface MicVolume {
  /** Level of the microphone, in dBFS rounded to 1 dB: -100 (silence) to 0 (full scale). */
  micVolume: number
  /** Highest `micVolume` since the component mounted, in dBFS. */
  maxMicVolume: number
}

/**
 * The microphone level, in **dBFS** (decibels relative to full scale, RMS): `-100` is silence, `0`
 * the loudest possible signal; speech is typically -50 to -20. Updated with each 20 ms frame
 * (re-rendering only when the rounded value changes). The volume VAD's `threshold` uses the same
 * unit, so a meter can show it.
 */
export function useMicVolume(): MicVolume {
  const client = useMicdropClient()
  const { volume, max } = useLevel(
    (onLevel) => {
      client.mic.on('Volume', onLevel)
      return () => void client.mic.off('Volume', onLevel)
    },
    [client]
  )
  return { micVolume: volume, maxMicVolume: max }
}
