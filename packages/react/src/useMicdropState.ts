import type { MicdropClient, MicdropState } from '@openmic/client'
import { useCallback, useSyncExternalStore } from 'react'
import { useMicdropClient } from './MicdropProvider.js'

// One snapshot per client, replaced on each StateChange (useSyncExternalStore needs a stable one)
const snapshots = new WeakMap<MicdropClient, MicdropState>()

function snapshot(client: MicdropClient): MicdropState {
  let state = snapshots.get(client)
  if (!state) {
    state = client.state
    snapshots.set(client, state)
  }
  return state
}

/**
 * The state of the call (`isStarted`, `isListening`, `isUserSpeaking`, `conversation`, `caption`,
 * `error`, devices…), re-rendering on each change.
 *
 * @example
 * const { isStarted, conversation } = useMicdropState()
 */
export function useMicdropState(): MicdropState {
  const client = useMicdropClient()
  const subscribe = useCallback(
    (notify: () => void) => {
      const onChange = (state: MicdropState) => {
        snapshots.set(client, state)
        notify()
      }
      client.on('StateChange', onChange)
      // A change between the first render and this subscription is picked up here
      snapshots.set(client, client.state)
      return () => void client.off('StateChange', onChange)
    },
    [client]
  )
  const get = () => snapshot(client)
  return useSyncExternalStore(subscribe, get, get)
}
