import { SILENCE_DB } from '@openmic/client'
import { useEffect, useState } from 'react'

/** A level in dBFS rounded to 1 dB, and the highest since mount. */
export interface Level {
  volume: number
  max: number
}

/**
 * Follows a level given by `subscribe` (which returns its unsubscribe), re-rendering only when
 * the rounded value changes.
 */
export function useLevel(
  subscribe: (onLevel: (level: number) => void) => () => void,
  deps: unknown[]
): Level {
  const [level, setLevel] = useState<Level>({ volume: SILENCE_DB, max: SILENCE_DB })
  useEffect(
    () =>
      subscribe((raw) => {
        const volume = Math.round(raw)
        setLevel((previous) =>
          previous.volume === volume ? previous : { volume, max: Math.max(previous.max, volume) }
        )
      }),
    deps
  )
  return level
}
