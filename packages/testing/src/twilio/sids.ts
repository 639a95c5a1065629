import { randomBytes } from 'node:crypto'

/**
 * A Twilio SID: a two-letter prefix and 32 hex digits (`CA…` a call, `AC…` an account, `MZ…` a
 * stream, `SK…` an API key). Random, so parallel tests never share one.
 */
export function twilioSid(prefix: string): string {
  return prefix + randomBytes(16).toString('hex')
}
