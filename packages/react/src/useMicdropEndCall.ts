import { useClientEvent } from './use-client-event.js'

/**
 * Runs `callback` when the assistant ends the call (`EndCall`, sent after its goodbye's last
 * audio). The call is not stopped for you: stop it here, for instance once playback ended.
 */
export function useMicdropEndCall(callback: () => void): void {
  useClientEvent('EndCall', callback)
}
