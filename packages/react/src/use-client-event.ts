import type { MicdropClientEvents } from '@openmic/client'
import { useEffect, useRef } from 'react'
import { useMicdropClient } from './MicdropProvider.js'

/** Calls the latest `callback` on each `event` of the client, until unmount. */
export function useClientEvent<E extends keyof MicdropClientEvents>(
  event: E,
  callback: (...args: MicdropClientEvents[E]) => void
): void {
  const client = useMicdropClient()
  const latest = useRef(callback)
  latest.current = callback
  useEffect(() => {
    const listener = (...args: MicdropClientEvents[E]) => latest.current(...args)
    client.on(event, listener as never)
    return () => void client.off(event, listener as never)
  }, [client, event])
}
