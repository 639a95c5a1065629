import { twilioHangUp, twilioVoiceWebhook } from '@openmic/twilio'
import type { FastifyInstance } from 'fastify'
import twilio from 'twilio'
import { answerPhoneCall, type PhoneCallContext } from './phone-call.js'
import { STREAM_TOKEN_PARAMETER, streamToken } from './stream-token.js'

/** Where Twilio opens the call's Media Stream. */
const STREAM_PATH = '/twilio/stream'

/**
 * The phone endpoints, when `TWILIO_AUTH_TOKEN` is set (else they do not exist: 404):
 * `POST /twilio/voice`, the number's voice webhook, answers a request signed for
 * `OPENMIC_PUBLIC_URL` with the TwiML that opens a Media Stream to `wss://<public host>/twilio/stream`
 * (403 when the signature does not verify); `GET /twilio/stream` runs the call on it.
 * Register it as a plugin: the form parser it adds stays inside it.
 */
export async function phoneRoutes(
  app: FastifyInstance,
  context: Omit<PhoneCallContext, 'token' | 'hangUp'>
): Promise<void> {
  const { publicUrl, twilio: credentials } = context.config
  const { authToken, accountSid, apiBaseUrl } = credentials
  if (!authToken || !publicUrl) return
  const token = streamToken(authToken, publicUrl)
  const webhook = twilioVoiceWebhook({
    authToken,
    streamUrl: `${publicUrl.replace(/^http/, 'ws')}${STREAM_PATH}`,
    // They reach the call in `start.customParameters`.
    parameters: (params) => ({
      [STREAM_TOKEN_PARAMETER]: token,
      from: params.From ?? '',
      to: params.To ?? '',
    }),
  })
  const phone: PhoneCallContext = { ...context, token }
  if (accountSid) {
    const client = twilio(accountSid, authToken)
    if (apiBaseUrl) client.api.baseUrl = apiBaseUrl
    phone.hangUp = twilioHangUp(client)
  }

  // Twilio posts form-encoded parameters: kept as the raw text, which the webhook checks and reads.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, body)
  )

  app.post('/twilio/voice', async (request, reply) => {
    // Twilio signed the URL it was configured with: the public one, not the one this server sees
    const url = `${publicUrl}${request.url}`
    const body = typeof request.body === 'string' ? request.body : ''
    const response = webhook({ url, headers: request.headers, body })
    if (response.status === 403) {
      console.warn(
        `Twilio webhook refused: its signature does not verify for ${url} ` +
          '(is OPENMIC_PUBLIC_URL the URL the number calls, and TWILIO_AUTH_TOKEN its account’s?)'
      )
    }
    return reply.code(response.status).headers(response.headers).send(response.body)
  })

  app.get(STREAM_PATH, { websocket: true }, (socket) => answerPhoneCall(socket, phone))
}
