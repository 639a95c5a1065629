import { createFakeTelnyxApi, FakeTelnyxCall } from '@openmic/testing/telnyx'
import Telnyx from 'telnyx'
import { afterEach, describe, expect, it } from 'vitest'
import { readTelnyxMessage } from '../src/media-stream/inbound.js'
import { telnyxHangUp, telnyxStreamingOptions } from '../src/index.js'

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('Telnyx wire', () => {
  it("reads the start frame of Telnyx's documentation", () => {
    const frame = {
      event: 'start',
      sequence_number: '1',
      stream_id: '32DE0DEA-53CB-4B21-89A4-9E1819C043BC',
      start: {
        user_id: '3E6F995F-85F7-4705-9741-53B116D28237',
        call_control_id: 'v2:T02llQxIyaRkhfRKxgAP8nY511EhFLizdvdUKJiSw8d6A9BborherQ',
        call_session_id: 'ff55a038-6f5d-11ef-9692-02420aeffb1f',
        from: '+13122010094',
        to: '+13122123456',
        tags: ['TAG1', 'TAG2'],
        client_state: 'aGF2ZSBhIG5pY2UgZGF5ID1d',
        custom_parameters: { customer_id: 'customer_123' },
        media_format: { encoding: 'PCMU', sample_rate: 8000, channels: 1 },
      },
    }
    expect(readTelnyxMessage(JSON.stringify(frame))).toEqual({
      event: 'start',
      start: {
        streamId: '32DE0DEA-53CB-4B21-89A4-9E1819C043BC',
        callControlId: 'v2:T02llQxIyaRkhfRKxgAP8nY511EhFLizdvdUKJiSw8d6A9BborherQ',
        callSessionId: 'ff55a038-6f5d-11ef-9692-02420aeffb1f',
        from: '+13122010094',
        to: '+13122123456',
        clientState: 'aGF2ZSBhIG5pY2UgZGF5ID1d',
        customParameters: { customer_id: 'customer_123' },
      },
      callId: 'v2:T02llQxIyaRkhfRKxgAP8nY511EhFLizdvdUKJiSw8d6A9BborherQ',
      parameters: { customer_id: 'customer_123' },
    })
  })

  it('says what is wrong with a frame it cannot read', () => {
    expect(readTelnyxMessage('{"event":"start","start":{}}')).toMatch(/without stream_id/)
    const pcma = {
      event: 'start',
      stream_id: 's',
      start: { call_control_id: 'c', media_format: { encoding: 'PCMA' } },
    }
    expect(readTelnyxMessage(JSON.stringify(pcma))).toMatch(/only PCMU/)
    expect(readTelnyxMessage('{"event":"error","payload":{"code":100003}}')).toMatch(
      /error from Telnyx.*100003/
    )
    expect(readTelnyxMessage('{"event":"dtmf","dtmf":{}}')).toMatch(/dtmf without a digit/)
  })

  it('streaming_start options: bidirectional RTP in PCMU, parameters as custom_parameters', () => {
    expect(
      telnyxStreamingOptions({ url: 'wss://example.com/telnyx', parameters: { lang: 'en' } })
    ).toEqual({
      stream_url: 'wss://example.com/telnyx',
      stream_track: 'inbound_track',
      stream_bidirectional_mode: 'rtp',
      stream_bidirectional_codec: 'PCMU',
      custom_parameters: [{ name: 'lang', value: 'en' }],
    })
  })

  it('telnyxHangUp posts actions/hangup through the SDK, with the API key; a wrong key fails', async () => {
    const api = await createFakeTelnyxApi()
    cleanups.push(() => api.close())
    const good = new Telnyx({ apiKey: api.apiKey, baseURL: api.baseURL, maxRetries: 0 })
    const bad = new Telnyx({ apiKey: 'wrong', baseURL: api.baseURL, maxRetries: 0 })
    await expect(telnyxHangUp(bad)('v3:unknown')).rejects.toThrow(/401/)
    await expect(telnyxHangUp(good)('v3:unknown')).rejects.toThrow(/404/)
    expect(api.requests.map((request) => [request.method, request.path, request.status])).toEqual([
      ['POST', '/v2/calls/v3:unknown/actions/hangup', 401],
      ['POST', '/v2/calls/v3:unknown/actions/hangup', 404],
    ])
  })

  it('the fake call: a hang-up through the API stops its stream', async () => {
    const api = await createFakeTelnyxApi()
    cleanups.push(() => api.close())
    const { WebSocketServer } = await import('ws')
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise((resolve) => wss.once('listening', resolve))
    cleanups.push(() => new Promise((resolve) => wss.close(resolve)))
    const port = (wss.address() as { port: number }).port
    const call = await FakeTelnyxCall.connect({ url: `ws://127.0.0.1:${port}` })
    const record = api.attach(call)
    const client = new Telnyx({ apiKey: api.apiKey, baseURL: api.baseURL, maxRetries: 0 })
    await telnyxHangUp(client)(call.callControlId)
    const end = await call.closed
    expect(end.by).toBe('stop')
    expect(record.hungUp).toBe(true)
    expect(call.hangUps.map((hangUp) => hangUp.by)).toEqual(['api'])
    expect(call.sent.at(-1)!.message.event).toBe('stop')
  })
})
