import twilio from 'twilio'

/**
 * The TwiML that connects a call to a bidirectional Media Stream:
 * `<Response><Connect><Stream url="…"><Parameter name value/>…</Stream></Connect></Response>`,
 * built with the official SDK (which escapes the attributes). The parameters reach the stream's
 * `start` message as `customParameters`.
 */
export function connectStreamTwiml(url: string, parameters: Record<string, string> = {}): string {
  const response = new twilio.twiml.VoiceResponse()
  const stream = response.connect().stream({ url })
  for (const [name, value] of Object.entries(parameters)) stream.parameter({ name, value })
  return response.toString()
}
