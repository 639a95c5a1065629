import { describePhoneConformance } from '@openmic/testing/phone'
import { createFakeTwilioApi, FakeTwilioCall } from '@openmic/testing/twilio'
import twilio from 'twilio'
import { TwilioServer, twilioHangUp } from '../src/index.js'

describePhoneConformance<FakeTwilioCall>({
  carrier: 'Twilio',
  createServer: (socket, options) => new TwilioServer(socket, options),
  connect: (url, customParameters) => FakeTwilioCall.connect({ url, customParameters }),
  async hangUpApi() {
    const api = await createFakeTwilioApi()
    const client = twilio(api.accountSid, api.authToken)
    client.api.baseUrl = api.baseURL
    return {
      hangUp: twilioHangUp(client),
      attach: (call) => {
        const record = api.attach(call)
        return { hungUp: () => record.status === 'completed' }
      },
      close: () => api.close(),
    }
  },
  wire: {
    start: (customParameters) =>
      JSON.stringify({
        event: 'start',
        start: { streamSid: 'MZ1', callSid: 'CA1', accountSid: 'AC1', customParameters },
        streamSid: 'MZ1',
      }),
    media: (payload) => JSON.stringify({ event: 'media', media: { payload }, streamSid: 'MZ1' }),
  },
})
