import type { Twilio } from 'twilio'

/**
 * `TwilioServer`'s `hangUp` through Twilio's REST API (the official SDK's client): the call is
 * completed, whatever TwiML would come after its stream.
 *
 * @example
 * new TwilioServer(socket, { ...options, hangUp: twilioHangUp(twilio(accountSid, authToken)) })
 */
export function twilioHangUp(client: Twilio): (callSid: string) => Promise<void> {
  return async (callSid) => {
    await client.calls(callSid).update({ status: 'completed' })
  }
}
