import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto'
import { telnyxCallControlId, telnyxUuid } from './ids.js'

/** A key pair to sign webhooks with, as Telnyx does: its public key as Mission Control shows it. */
export interface TelnyxWebhookKeys {
  /** The public key, base64 of its 32 raw bytes (what an application is configured with). */
  publicKey: string
  /** The private key that signs (Telnyx's side). */
  privateKey: KeyObject
}

/** A webhook request as Telnyx posts it: what to give an HTTP client or a handler under test. */
export interface SignedTelnyxWebhook {
  method: 'POST'
  /** `content-type`, `telnyx-timestamp` and `telnyx-signature-ed25519`, lower case as Node gives them. */
  headers: Record<string, string>
  /** The JSON body, as signed. */
  body: string
}

/** Options of {@link telnyxWebhookRequest}. */
export interface SignedTelnyxWebhookOptions {
  /** The signing time, in Unix seconds (default: now). */
  timestamp?: number
}

/** A new Ed25519 key pair, for a test's webhooks (the public key in Telnyx's base64 format). */
export function createTelnyxWebhookKeys(): TelnyxWebhookKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const jwk = publicKey.export({ format: 'jwk' })
  return { publicKey: Buffer.from(jwk.x!, 'base64url').toString('base64'), privateKey }
}

/**
 * A Call Control `call.initiated` event (an incoming call), as Telnyx's webhook body has it, with
 * `payload` fields on top: `call_control_id` (random `v3:…`), `call_session_id`,
 * `call_leg_id`, `connection_id`, `from`, `to`, `direction: "incoming"`, `state: "parked"`.
 */
export function telnyxCallInitiatedEvent(payload: Record<string, unknown> = {}) {
  return {
    data: {
      record_type: 'event',
      event_type: 'call.initiated',
      id: telnyxUuid(),
      occurred_at: new Date().toISOString(),
      payload: {
        call_control_id: telnyxCallControlId(),
        call_session_id: telnyxUuid(),
        call_leg_id: telnyxUuid(),
        connection_id: '1494404757140276705',
        from: '+13125550100',
        to: '+13125550199',
        direction: 'incoming',
        state: 'parked',
        ...payload,
      },
    },
    meta: { attempt: 1, delivered_to: 'https://example.com/telnyx/webhook' },
  }
}

/**
 * A webhook request as Telnyx posts it: `event` as JSON, signed with `privateKey` as Telnyx signs
 * (Ed25519 over `${timestamp}|${body}`, base64 in `telnyx-signature-ed25519`, the Unix seconds in
 * `telnyx-timestamp`).
 *
 * @example
 * const keys = createTelnyxWebhookKeys()
 * const hook = telnyxWebhookRequest(telnyxCallInitiatedEvent(), keys.privateKey)
 * await fetch(`${origin}/telnyx/webhook`, hook)
 */
export function telnyxWebhookRequest(
  event: unknown,
  privateKey: KeyObject,
  options: SignedTelnyxWebhookOptions = {}
): SignedTelnyxWebhook {
  const body = JSON.stringify(event)
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000))
  const signature = sign(null, Buffer.from(`${timestamp}|${body}`), privateKey).toString('base64')
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'telnyx-timestamp': timestamp,
      'telnyx-signature-ed25519': signature,
    },
    body,
  }
}
