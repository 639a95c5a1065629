import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import twilio from 'twilio'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createFakeTwilioApi,
  FakeTwilioCall,
  twilioWebhookRequest,
  type FakeTwilioApi,
} from '../../src/twilio/index.js'
import { startMediaServer } from './media-server.js'

let api: FakeTwilioApi

/** The official SDK, pointed at the fake. */
function client(username = api.accountSid, password = api.authToken, accountSid?: string) {
  const sdk = twilio(username, password, accountSid ? { accountSid } : {})
  sdk.api.baseUrl = api.baseURL
  return sdk
}

beforeEach(async () => {
  api = await createFakeTwilioApi()
})

afterEach(async () => {
  await api.close()
})

describe('FakeTwilioApi with the twilio SDK', () => {
  it('creates a call and gives it back as the SDK parses it', async () => {
    const created: string[] = []
    await api.close()
    api = await createFakeTwilioApi({ onCallCreated: (call) => created.push(call.sid) })
    const call = await client().calls.create({
      to: '+15005550006',
      from: '+15005550001',
      twiml: '<Response><Connect><Stream url="wss://example.com/s"/></Connect></Response>',
      statusCallback: 'https://example.com/status',
    })
    expect(call.sid).toMatch(/^CA[0-9a-f]{32}$/)
    expect(call).toMatchObject({
      accountSid: api.accountSid,
      to: '+15005550006',
      from: '+15005550001',
      status: 'queued',
      direction: 'outbound-api',
      apiVersion: '2010-04-01',
    })
    expect(call.dateCreated).toBeInstanceOf(Date)
    expect(Number.isNaN(call.dateCreated.getTime())).toBe(false)
    expect(created).toEqual([call.sid])
    const [request] = api.requests
    expect(request).toMatchObject({
      method: 'POST',
      path: `/2010-04-01/Accounts/${api.accountSid}/Calls.json`,
      status: 201,
      auth: 'auth-token',
    })
    expect(request!.params).toMatchObject({
      To: '+15005550006',
      From: '+15005550001',
      StatusCallback: 'https://example.com/status',
    })
    expect(api.call(call.sid)!.twiml).toContain('<Connect>')
    const fetched = await client().calls(call.sid).fetch()
    expect(fetched.sid).toBe(call.sid)
  })

  it('refuses a call without To, From or instructions, with Twilio codes', async () => {
    await expect(
      client().calls.create({ to: '+15005550006', from: '+15005550001' })
    ).rejects.toMatchObject({ status: 400, code: 21205 })
  })

  it('refuses an invalid number (21211 To, 21212 From) and TwiML over 4 000 characters', async () => {
    await api.close()
    api = await createFakeTwilioApi({ invalidNumbers: ['+15005550001'] })
    const twiml = '<Response/>'
    const attempts = [
      { to: '0612345678', from: '+15005550006', twiml },
      { to: '+15005550001', from: '+15005550006', twiml },
      { to: '+15005550006', from: 'me', twiml },
      {
        to: '+15005550006',
        from: '+15005550006',
        twiml: `<Response>${' '.repeat(4000)}</Response>`,
      },
    ]
    const codes = []
    for (const attempt of attempts) {
      codes.push(
        await client()
          .calls.create(attempt)
          .catch((error: any) => [error.status, error.code])
      )
    }
    expect(codes).toEqual([
      [400, 21211],
      [400, 21211],
      [400, 21212],
      [400, 32018],
    ])
    expect(api.calls).toEqual([])
    // A Client address is a valid To
    await client().calls.create({ to: 'client:alice', from: '+15005550006', twiml })
    expect(api.calls).toHaveLength(1)
  })

  it('answers a created call: its Media Stream connects with the TwiML parameters', async () => {
    const server = await startMediaServer()
    try {
      const created = await client().calls.create({
        to: '+15005550006',
        from: '+15005550001',
        twiml:
          '<Response><Connect><Stream url="wss://voice.example.com/s">' +
          '<Parameter name="who" value="a &amp; b"/></Stream></Connect></Response>',
      })
      const streamUrls: string[] = []
      const stream = await api.answer(created.sid, {
        url: (url) => {
          streamUrls.push(url)
          return server.url
        },
      })
      expect(streamUrls).toEqual(['wss://voice.example.com/s'])
      const connection = await server.connection()
      while (connection.of('start').length === 0) await new Promise((r) => setTimeout(r, 5))
      expect(connection.of('start')[0].start).toMatchObject({
        callSid: created.sid,
        accountSid: api.accountSid,
        customParameters: { who: 'a & b' },
      })
      expect(api.call(created.sid)).toMatchObject({ status: 'in-progress', stream })
      await expect(api.answer(created.sid)).rejects.toThrow(/in-progress, not waiting/)
      await client().calls(created.sid).update({ status: 'completed' })
      expect(await stream.closed).toMatchObject({ by: 'stop' })
    } finally {
      await server.close()
    }
  })

  it('hangs a call up with Status=completed, and its Media Stream with it', async () => {
    const server = await startMediaServer()
    try {
      const stream = await FakeTwilioCall.connect({ url: server.url, accountSid: api.accountSid })
      api.attach(stream)
      const connection = await server.connection()
      const updated = await client().calls(stream.callSid).update({ status: 'completed' })
      expect(updated.status).toBe('completed')
      expect(updated.endTime).toBeInstanceOf(Date)
      expect(await stream.closed).toMatchObject({ by: 'stop', code: 1000 })
      expect(stream.hangUps).toEqual([{ atMs: expect.any(Number), by: 'api' }])
      expect(connection.of('stop')).toHaveLength(1)
      expect(api.requests.at(-1)!.params).toEqual({ Status: 'completed' })
    } finally {
      await server.close()
    }
  })

  it('redirects a call in progress with new TwiML, refuses it once the call ended', async () => {
    const call = api.addCall()
    const twiml = '<Response><Say>Bye</Say><Hangup/></Response>'
    await client().calls(call.sid).update({ twiml })
    expect(call.twiml).toBe(twiml)
    expect(call.updates).toEqual([{ Twiml: twiml }])
    await client().calls(call.sid).update({ status: 'completed' })
    await expect(client().calls(call.sid).update({ twiml })).rejects.toMatchObject({
      status: 400,
      code: 21220,
    })
  })

  it('answers 404 (20404) for an unknown call', async () => {
    const error = await client()
      .calls('CA00000000000000000000000000000000')
      .update({ status: 'completed' })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(twilio.RestException)
    expect(error).toMatchObject({ status: 404, code: 20404 })
  })

  it('answers 401 (20003) for a wrong token or another account', async () => {
    const call = api.addCall()
    await expect(
      client(api.accountSid, 'wrong').calls(call.sid).update({ status: 'completed' })
    ).rejects.toMatchObject({ status: 401, code: 20003 })
    const other = twilio('AC' + '1'.repeat(32), api.authToken)
    other.api.baseUrl = api.baseURL
    await expect(other.calls(call.sid).fetch()).rejects.toMatchObject({ status: 401 })
    expect(api.requests.map((request) => [request.status, request.auth])).toEqual([
      [401, 'none'],
      [401, 'none'],
    ])
    expect(call.status).toBe('in-progress')
  })

  it('accepts an API key of the account', async () => {
    const key = api.addApiKey()
    const call = api.addCall()
    const sdk = client(key, api.apiKeySecret(key)!, api.accountSid)
    expect((await sdk.calls(call.sid).update({ status: 'completed' })).status).toBe('completed')
    expect(api.requests[0]!.auth).toBe('api-key')
  })

  it('posts a signed status callback when a call with one ends', async () => {
    const received: Array<{ signature: string; body: string; url: string }> = []
    const hooks = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        received.push({ signature: String(req.headers['x-twilio-signature']), body, url: req.url! })
        res.end()
      })
    })
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', () => resolve()))
    const url = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/status`
    try {
      const call = api.addCall({ statusCallback: url })
      await client().calls(call.sid).update({ status: 'completed' })
      await api.waitForRequests(1)
      while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
      const params = Object.fromEntries(new URLSearchParams(received[0]!.body))
      expect(params).toMatchObject({ CallSid: call.sid, CallStatus: 'completed' })
      expect(twilio.validateRequest(api.authToken, received[0]!.signature, url, params)).toBe(true)
    } finally {
      await new Promise((resolve) => hooks.close(resolve))
    }
  })
})

describe('twilioWebhookRequest', () => {
  it('signs a voice webhook as Twilio does, valid for the SDK', () => {
    const url = 'https://voice.example.com/twilio/voice?tenant=a'
    const hook = twilioWebhookRequest(url, { From: '+33612345678' }, 'token123')
    const params = Object.fromEntries(new URLSearchParams(hook.body))
    expect(params).toEqual(hook.params)
    expect(params).toMatchObject({
      From: '+33612345678',
      CallStatus: 'ringing',
      Direction: 'inbound',
      ApiVersion: '2010-04-01',
    })
    expect(params.CallSid).toMatch(/^CA[0-9a-f]{32}$/)
    expect(params.AccountSid).toMatch(/^AC[0-9a-f]{32}$/)
    expect(hook.headers['content-type']).toBe('application/x-www-form-urlencoded')
    const signature = hook.headers['x-twilio-signature']!
    expect(twilio.validateRequest('token123', signature, url, params)).toBe(true)
    expect(twilio.validateRequest('other', signature, url, params)).toBe(false)
    expect(twilio.validateRequest('token123', signature, url, { ...params, To: '+1' })).toBe(false)
  })
})
