import type { AddressInfo } from 'node:net'
import { EnergyVAD, MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { createFakeTwilioApi, readTwimlStream, type FakeTwilioApi } from '@openmic/testing/twilio'
import twilio from 'twilio'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import {
  TwilioCallOutError,
  TwilioServer,
  twilioCallOut,
  type TwilioCallOutOptions,
} from '../src/index.js'

const STREAM_URL = 'wss://voice.example.com/twilio/stream'
const CALL: TwilioCallOutOptions = {
  to: '+33612345678',
  from: '+15005550006',
  streamUrl: STREAM_URL,
  parameters: { reason: 'reminder', name: 'Zoé & "co"' },
}

let api: FakeTwilioApi

/** The official SDK, its `api.twilio.com` requests sent to the fake. */
function client(authToken = api.authToken) {
  const sdk = twilio(api.accountSid, authToken)
  sdk.api.baseUrl = api.baseURL
  return sdk
}

/** What `twilioCallOut` threw. */
async function failure(promise: Promise<unknown>): Promise<TwilioCallOutError> {
  const error = await promise.then(
    () => undefined,
    (error: unknown) => error
  )
  expect(error).toBeInstanceOf(TwilioCallOutError)
  return error as TwilioCallOutError
}

beforeEach(async () => {
  api = await createFakeTwilioApi({ invalidNumbers: ['+15005550001'] })
})

afterEach(async () => {
  await api.close()
})

describe('twilioCallOut', () => {
  it('creates the call with the form fields and inline TwiML of a Media Stream', async () => {
    const sid = await twilioCallOut(client(), {
      ...CALL,
      statusCallback: 'https://voice.example.com/twilio/status',
      statusCallbackEvent: ['answered', 'completed'],
      timeout: 20,
    })
    expect(sid).toMatch(/^CA[0-9a-f]{32}$/)
    // One request: the creation, with the SDK's form fields
    expect(api.requests).toMatchObject([
      {
        method: 'POST',
        path: `/2010-04-01/Accounts/${api.accountSid}/Calls.json`,
        params: {
          To: '+33612345678',
          From: '+15005550006',
          StatusCallback: 'https://voice.example.com/twilio/status',
          Timeout: '20',
        },
      },
    ])
    const [request] = api.requests
    // Each event is its own field, as the SDK sends them
    expect(new URLSearchParams(request!.rawBody).getAll('StatusCallbackEvent')).toEqual([
      'answered',
      'completed',
    ])
    const call = api.call(sid)!
    expect(call).toMatchObject({ status: 'queued', direction: 'outbound-api' })
    expect(call.statusCallbackEvent).toEqual(['answered', 'completed'])
    expect(call.twiml).toContain(`<Connect><Stream url="${STREAM_URL}">`)
    expect(readTwimlStream(call.twiml!)).toEqual({
      url: STREAM_URL,
      parameters: { reason: 'reminder', name: 'Zoé & "co"' },
    })
  })

  it('once answered, the stream reaches a TwilioServer with the call SID and the parameters', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => wss.once('listening', resolve))
    const servers: TwilioServer[] = []
    wss.on('connection', (socket) => {
      servers.push(
        new TwilioServer(socket, {
          agent: new MockAgent({ systemPrompt: 'You call to remind.' }),
          stt: new MockSTT(),
          tts: new MockTTS({ msPerChar: 20 }),
          vad: new EnergyVAD(),
          firstMessage: 'Hello, this is your reminder.',
        })
      )
    })
    try {
      const sid = await twilioCallOut(client(), CALL)
      const local = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/twilio/stream`
      const stream = await api.answer(sid, { url: () => local })
      expect(api.call(sid)!.status).toBe('in-progress')
      await stream.waitFor(() => stream.heardMs > 200, 10_000, 'the greeting playing')
      expect(servers[0]!.callStart).toMatchObject({
        callSid: sid,
        accountSid: api.accountSid,
        customParameters: CALL.parameters,
      })
      expect(stream.protocolErrors).toEqual([])
      await stream.hangUp()
    } finally {
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    }
  })

  it('refuses bad input before any request, saying what was wrong', async () => {
    const cases: Array<[Partial<TwilioCallOutOptions>, string, RegExp]> = [
      [{ to: '0612345678' }, 'invalid_number', /to "0612345678" is not an E\.164 number/],
      [{ from: '+1 415 555 0100' }, 'invalid_number', /from "\+1 415 555 0100"/],
      [{ streamUrl: 'ws://voice.example.com/s' }, 'invalid_stream_url', /not wss:\/\//],
      [{ streamUrl: 'wss://voice.example.com/s?token=1' }, 'invalid_stream_url', /query string/],
      [{ streamUrl: 'voice.example.com' }, 'invalid_stream_url', /is not a URL/],
      [{ parameters: { note: 'x'.repeat(4000) } }, 'invalid_twiml', /over Twilio's 4000/],
    ]
    for (const [change, code, message] of cases) {
      const error = await failure(twilioCallOut(client(), { ...CALL, ...change }))
      expect(error.code).toBe(code)
      expect(error.message).toMatch(message)
    }
    expect(api.requests).toEqual([])
  })

  it("surfaces Twilio's refusal of a number (400, 21211) as a typed, readable error", async () => {
    const error = await failure(twilioCallOut(client(), { ...CALL, to: '+15005550001' }))
    expect(error).toMatchObject({
      code: 'refused',
      status: 400,
      twilioCode: 21211,
      moreInfo: 'https://www.twilio.com/docs/errors/21211',
    })
    expect(error.message).toBe(
      "Twilio refused the call to +15005550001 (HTTP 400, error 21211): The 'To' number " +
        '+15005550001 is not a valid phone number. (https://www.twilio.com/docs/errors/21211)'
    )
    expect(error.cause).toBeInstanceOf(twilio.RestException)
    expect(api.calls).toEqual([])
  })

  it('surfaces bad credentials (401, 20003), and an API that does not answer', async () => {
    const refused = await failure(twilioCallOut(client('wrong-token'), CALL))
    expect(refused).toMatchObject({ code: 'refused', status: 401, twilioCode: 20003 })
    expect(refused.message).toMatch(/HTTP 401, error 20003\): Authenticate/)
    const sdk = client()
    await api.close()
    const unreachable = await failure(twilioCallOut(sdk, CALL))
    expect(unreachable.code).toBe('request_failed')
    expect(unreachable.message).toMatch(
      /^The request to Twilio for the call to \+33612345678 failed: /
    )
    api = await createFakeTwilioApi()
  })
})
