import { useClientEvent } from './use-client-event.js'

/**
 * Runs `callback` when the assistant ends the call, once its goodbye has finished playing
 * (`EndCall`). The call is not stopped for you: `useMicdropEndCall(() => Micdrop.stop())` hangs up
 * without cutting the goodbye.
 */
export function useMicdropEndCall(callback: () => void): void {
  useClientEvent('EndCall', callback)
}
