import {
  createTelnyxWebhookKeys,
  telnyxCallInitiatedEvent,
  telnyxWebhookRequest,
} from '@openmic/testing/telnyx'
import { sign } from 'node:crypto'
import Telnyx from 'telnyx'
import { TelnyxWebhook } from 'telnyx/lib/webhooks'
import { describe, expect, it } from 'vitest'
import { telnyxWebhook } from '../src/index.js'

const keys = createTelnyxWebhookKeys()
const webhook = telnyxWebhook({ publicKey: keys.publicKey })
/** The official SDK's own check, with the same key. */
const sdk = new TelnyxWebhook(keys.publicKey)
const now = () => Math.floor(Date.now() / 1000)

describe('telnyxWebhook', () => {
  it('gives the event of a request Telnyx signed, as the official SDK does', async () => {
    const event = telnyxCallInitiatedEvent({ from: '+33612345678' })
    const request = telnyxWebhookRequest(event, keys.privateKey)
    const verdict = webhook({ headers: request.headers, body: request.body })
    expect(verdict).toEqual({ ok: true, event })
    // The SDK takes the same request, and reads the same event out of it
    await expect(sdk.verify(request.body, request.headers)).resolves.toBeUndefined()
    const client = new Telnyx({ apiKey: 'unused', publicKey: keys.publicKey })
    await expect(
      client.webhooks.unwrap(request.body, { headers: request.headers })
    ).resolves.toEqual(event)
    // Headers as a framework may spell them, and the raw body as bytes
    const spelled = {
      'Telnyx-Timestamp': request.headers['telnyx-timestamp'],
      'Telnyx-Signature-Ed25519': request.headers['telnyx-signature-ed25519'],
    }
    expect(webhook({ headers: spelled, body: Buffer.from(request.body) }).ok).toBe(true)
  })

  it('refuses with 403, as the SDK does, what Telnyx did not sign or signed long ago', async () => {
    const event = telnyxCallInitiatedEvent()
    const signed = telnyxWebhookRequest(event, keys.privateKey)
    const other = createTelnyxWebhookKeys()
    const cases: Array<[string, Record<string, string>, string, RegExp]> = [
      [
        'another key',
        telnyxWebhookRequest(event, other.privateKey).headers,
        signed.body,
        /does not match/,
      ],
      ['a body changed', signed.headers, signed.body.replace('+1312', '+1999'), /does not match/],
      [
        'a timestamp changed',
        { ...signed.headers, 'telnyx-timestamp': String(now() - 1) },
        signed.body,
        /does not match/,
      ],
      [
        'signed 6 minutes ago',
        telnyxWebhookRequest(event, keys.privateKey, { timestamp: now() - 360 }).headers,
        signed.body,
        /s from now \(more than 300\)/,
      ],
      [
        'signed 6 minutes ahead',
        telnyxWebhookRequest(event, keys.privateKey, { timestamp: now() + 360 }).headers,
        signed.body,
        /s from now/,
      ],
      [
        'no signature',
        { 'telnyx-timestamp': signed.headers['telnyx-timestamp']! },
        signed.body,
        /no telnyx-signature-ed25519/,
      ],
      [
        'no timestamp',
        { 'telnyx-signature-ed25519': signed.headers['telnyx-signature-ed25519']! },
        signed.body,
        /no telnyx-timestamp/,
      ],
      [
        'a signature that is not base64',
        { ...signed.headers, 'telnyx-signature-ed25519': 'not base64!' },
        signed.body,
        /not 64 bytes/,
      ],
      [
        'a timestamp that is not a number',
        { ...signed.headers, 'telnyx-timestamp': 'yesterday' },
        signed.body,
        /not Unix seconds/,
      ],
    ]
    for (const [what, headers, body, reason] of cases) {
      const verdict = webhook({ headers, body })
      expect(verdict, what).toMatchObject({ ok: false, status: 403, body: 'Invalid signature' })
      expect(verdict.ok ? '' : verdict.reason, what).toMatch(reason)
      await expect(sdk.verify(body, headers), what).rejects.toThrow()
    }
  })

  it('a signed body that is not JSON is 400; a tolerance of its own is taken', () => {
    // Signed by hand: the helper signs JSON
    const body = '{oops'
    const timestamp = String(now())
    const signature = sign(null, Buffer.from(`${timestamp}|${body}`), keys.privateKey)
    const headers = {
      'telnyx-timestamp': timestamp,
      'telnyx-signature-ed25519': signature.toString('base64'),
    }
    expect(webhook({ headers, body })).toMatchObject({
      ok: false,
      status: 400,
      reason: 'the signed body is not JSON',
    })
    const strict = telnyxWebhook({ publicKey: keys.publicKey, toleranceSeconds: 60 })
    const ninetySecondsAgo = telnyxWebhookRequest({}, keys.privateKey, { timestamp: now() - 90 })
    expect(strict(ninetySecondsAgo).ok).toBe(false)
    expect(webhook(ninetySecondsAgo).ok).toBe(true)
  })

  it('refuses a public key that is not 32 bytes of base64 when it is made', () => {
    for (const publicKey of ['', 'not base64!', Buffer.alloc(31).toString('base64')]) {
      expect(() => telnyxWebhook({ publicKey })).toThrow(/32-byte Ed25519 public key/)
    }
    expect(() => telnyxWebhook({ publicKey: keys.publicKey, toleranceSeconds: -1 })).toThrow(
      /toleranceSeconds/
    )
  })
})
