import twilio from 'twilio'
import { expect, it } from 'vitest'
import { createFakeTwilioApi, FakeTwilioCall } from '../../src/twilio/index.js'
import { startMediaServer, tone16k } from './media-server.js'

// The README's example, against a server that plays back a beep and a mark for each DTMF.
it('runs the README example', async () => {
  const server = await startMediaServer()
  const api = await createFakeTwilioApi()
  try {
    const call = await FakeTwilioCall.connect({
      url: server.url,
      accountSid: api.accountSid,
      customParameters: { tenant: 'a' },
    })
    api.attach(call)
    const connection = await server.connection()
    connection.socket.on('message', (data) => {
      const message = JSON.parse(String(data))
      if (message.event !== 'dtmf') return
      const payload = Buffer.alloc(800, 0x2a).toString('base64')
      connection.send({ event: 'media', streamSid: message.streamSid, media: { payload } })
      connection.send({ event: 'mark', streamSid: message.streamSid, mark: { name: 'beep' } })
    })

    call.say(tone16k(100))
    call.silence(50)
    call.say(tone16k(100), { atMs: 300 })
    call.sendDtmf('1')
    await call.waitFor(() => call.marks.length > 0, 10_000, 'a mark')
    expect(call.heardMs).toBe(100)
    expect(call.heardAudio()).toHaveLength(100 * 32)
    expect(call.marks[0]).toMatchObject({ name: 'beep', cleared: false })
    expect(call.protocolErrors).toEqual([])

    const client = twilio(api.accountSid, api.authToken)
    client.api.baseUrl = api.baseURL
    await client.calls(call.callSid).update({ status: 'completed' })
    expect(await call.closed).toEqual({ code: 1000, reason: '', by: 'stop' })
    expect(call.hangUps.map((hangUp) => hangUp.by)).toEqual(['api'])
  } finally {
    await api.close()
    await server.close()
  }
})
