import type Telnyx from 'telnyx'

/**
 * `TelnyxServer`'s `hangUp` through Telnyx's Call Control API (the official SDK's client:
 * `POST /v2/calls/{call_control_id}/actions/hangup`).
 *
 * @example
 * new TelnyxServer(socket, { ...options, hangUp: telnyxHangUp(new Telnyx({ apiKey })) })
 */
export function telnyxHangUp(client: Telnyx): (callControlId: string) => Promise<void> {
  return async (callControlId) => {
    await client.calls.actions.hangup(callControlId, {})
  }
}
