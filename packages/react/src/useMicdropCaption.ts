import { useCallback, useSyncExternalStore } from 'react'
import { useMicdropClient } from './MicdropProvider.js'

/**
 * The words of the answer being spoken, as far as playback has reached them (the client's
 * `state.caption`): `''` when the assistant says nothing. Re-renders only when the caption
 * changes, not on every state change. When the answer's message is added to the conversation, the
 * caption becomes `''` in the same render: show it as an assistant bubble in progress.
 *
 * @example
 * const caption = useMicdropCaption()
 * return caption ? <p className="assistant in-progress">{caption}</p> : null
 */
export function useMicdropCaption(): string {
  const client = useMicdropClient()
  const subscribe = useCallback(
    (notify: () => void) => {
      client.on('StateChange', notify)
      return () => void client.off('StateChange', notify)
    },
    [client]
  )
  // A string: useSyncExternalStore re-renders only when it differs
  const get = () => client.caption
  return useSyncExternalStore(subscribe, get, get)
}
