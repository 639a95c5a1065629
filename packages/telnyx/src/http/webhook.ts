import { createPublicKey, verify, type KeyObject } from 'node:crypto'

/** A webhook request as any HTTP framework gives it: its headers and its raw body, unparsed. */
export interface TelnyxWebhookRequest {
  headers: Record<string, string | string[] | undefined>
  /** The body exactly as received (the signature covers its bytes: never re-serialized JSON). */
  body: string | Buffer
}

/** Options of {@link telnyxWebhook}. */
export interface TelnyxWebhookOptions {
  /**
   * The account's public key, base64 (Mission Control: Account Settings, Keys & Credentials,
   * Public Key): 32 bytes of Ed25519.
   */
  publicKey: string
  /** How far the signed `telnyx-timestamp` may be from now, in seconds (default 300). */
  toleranceSeconds?: number
}

/**
 * A webhook's body: `data.event_type` says which event (`call.initiated`, `call.hangup`...) and
 * `data.payload` holds its fields (for a call: `call_control_id`, `from`, `to`, `client_state`...).
 * The official SDK's `Telnyx.UnwrapWebhookEvent` types every event, for a cast once narrowed.
 */
export interface TelnyxWebhookEvent {
  data?: {
    event_type?: string
    id?: string
    occurred_at?: string
    record_type?: string
    payload?: Record<string, unknown>
  }
  meta?: Record<string, unknown>
}

/** What {@link telnyxWebhook} makes of a request: Telnyx's event, or the response that refuses it. */
export type TelnyxWebhookVerdict =
  | { ok: true; event: TelnyxWebhookEvent }
  | {
      ok: false
      /** 403 for a signature that does not verify, 400 for a signed body that is not JSON. */
      status: 403 | 400
      headers: Record<string, string>
      body: string
      /** What was wrong, for a log line (the response body says less). */
      reason: string
    }

/** Telnyx's SDKs take a signature this far from now, in seconds. */
const DEFAULT_TOLERANCE_SECONDS = 300
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/**
 * Checks Telnyx's signature of a webhook request (Call Control events such as `call.initiated`),
 * framework-agnostic: give it the headers and the raw body, get the event or a refusal to send
 * back. Telnyx signs `${telnyx-timestamp}|${body}` with Ed25519 and sends the base64 signature in
 * `telnyx-signature-ed25519`; it verifies with the account's public key (Node's crypto), and a
 * timestamp more than `toleranceSeconds` from now is refused too (a replayed request). The same
 * check as the official SDK's `client.webhooks.unwrap`, synchronous.
 *
 * @example
 * const webhook = telnyxWebhook({ publicKey: process.env.TELNYX_PUBLIC_KEY! })
 * const verdict = webhook({ headers: req.headers, body: rawBody })
 * if (!verdict.ok) return res.writeHead(verdict.status, verdict.headers).end(verdict.body)
 * if (verdict.event.data?.event_type === 'call.initiated') { ... }
 */
export function telnyxWebhook(
  options: TelnyxWebhookOptions
): (request: TelnyxWebhookRequest) => TelnyxWebhookVerdict {
  const key = readPublicKey(options.publicKey)
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(`toleranceSeconds must be a number of seconds, got ${String(tolerance)}`)
  }
  return (request) => {
    const problem = signatureProblem(request, key, tolerance)
    if (problem) return refuse(403, 'Invalid signature', problem)
    try {
      return { ok: true, event: JSON.parse(request.body.toString()) as TelnyxWebhookEvent }
    } catch {
      return refuse(400, 'Invalid body', 'the signed body is not JSON')
    }
  }
}

/** Why the request's signature does not verify, or undefined when it does. */
function signatureProblem(
  request: TelnyxWebhookRequest,
  key: KeyObject,
  toleranceSeconds: number
): string | undefined {
  const signature = header(request.headers, 'telnyx-signature-ed25519')
  const timestamp = header(request.headers, 'telnyx-timestamp')
  if (signature === undefined) return 'no telnyx-signature-ed25519 header'
  if (timestamp === undefined) return 'no telnyx-timestamp header'
  if (!/^\d{1,15}$/.test(timestamp)) return `telnyx-timestamp is not Unix seconds: ${timestamp}`
  const ageSeconds = Math.abs(Date.now() / 1000 - Number(timestamp))
  if (ageSeconds > toleranceSeconds) {
    return `telnyx-timestamp is ${Math.round(ageSeconds)} s from now (more than ${toleranceSeconds})`
  }
  const bytes = BASE64.test(signature) ? Buffer.from(signature, 'base64') : undefined
  if (bytes?.length !== 64) return 'telnyx-signature-ed25519 is not 64 bytes of base64'
  const signed = Buffer.concat([Buffer.from(`${timestamp}|`), Buffer.from(request.body)])
  return verify(null, signed, key, bytes) ? undefined : 'the signature does not match the body'
}

/** A header's value (one of them, not a list); Node gives their names in lower case. */
function header(headers: TelnyxWebhookRequest['headers'], name: string): string | undefined {
  const value =
    headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]
  return typeof value === 'string' ? value : undefined
}

/** The account's base64 Ed25519 public key, as a key Node's crypto verifies with. */
function readPublicKey(base64: string): KeyObject {
  const bytes =
    typeof base64 === 'string' && BASE64.test(base64) ? Buffer.from(base64, 'base64') : undefined
  if (bytes?.length !== 32) {
    throw new TypeError(
      'publicKey must be the base64 of a 32-byte Ed25519 public key (Mission Control: Keys & Credentials)'
    )
  }
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: bytes.toString('base64url') },
    format: 'jwk',
  })
}

function refuse(status: 403 | 400, body: string, reason: string): TelnyxWebhookVerdict {
  return { ok: false, status, headers: { 'content-type': 'text/plain' }, body, reason }
}
