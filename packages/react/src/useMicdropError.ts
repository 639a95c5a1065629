import type { MicdropClientError } from '@openmic/client'
import { useClientEvent } from './use-client-event.js'

/** Runs `callback` with each error of the client (`error.code`: `Unauthorized`, `MicPermissionDenied`…). */
export function useMicdropError(callback: (error: MicdropClientError) => void): void {
  useClientEvent('Error', callback)
}
