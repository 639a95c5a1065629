import { createHmac, timingSafeEqual } from 'node:crypto'
import { MicdropError, MicdropErrorCode } from '@openmic/server'

/** The stream's `<Parameter>` that carries the token (in `start.customParameters`). */
export const STREAM_TOKEN_PARAMETER = 'streamToken'

/**
 * This deployment's token for its Media Streams: the voice webhook (whose signature Twilio
 * computed with the auth token) puts it in the TwiML, and a stream without it is refused, so
 * that nobody else can open calls on the public `wss://` URL. Derived from the auth token and the
 * public URL: nothing more to configure, and it does not reveal the auth token.
 */
export function streamToken(authToken: string, publicUrl: string): string {
  return createHmac('sha256', authToken)
    .update(`openmic media stream ${publicUrl}`)
    .digest('base64url')
}

/**
 * The stream's `params` check: its custom parameters without the token, or a `MicdropError`
 * (4401) unless they carry `token`.
 */
export function streamParams(
  token: string,
  customParameters: Record<string, string>
): Record<string, string> {
  const { [STREAM_TOKEN_PARAMETER]: given = '', ...params } = customParameters
  const givenBytes = Buffer.from(given)
  const expected = Buffer.from(token)
  if (givenBytes.length !== expected.length || !timingSafeEqual(givenBytes, expected)) {
    throw new MicdropError(MicdropErrorCode.Unauthorized, 'Invalid stream token')
  }
  return params
}
