import { describePhoneConformance } from '@openmic/testing/phone'
import { createFakeTelnyxApi, FakeTelnyxCall } from '@openmic/testing/telnyx'
import Telnyx from 'telnyx'
import { TelnyxServer, telnyxHangUp } from '../src/index.js'

describePhoneConformance<FakeTelnyxCall>({
  carrier: 'Telnyx',
  createServer: (socket, options) => new TelnyxServer(socket, options),
  connect: (url, customParameters) => FakeTelnyxCall.connect({ url, customParameters }),
  async hangUpApi() {
    const api = await createFakeTelnyxApi()
    const client = new Telnyx({ apiKey: api.apiKey, baseURL: api.baseURL, maxRetries: 0 })
    return {
      hangUp: telnyxHangUp(client),
      attach: (call) => {
        const record = api.attach(call)
        return { hungUp: () => record.hungUp }
      },
      close: () => api.close(),
    }
  },
  wire: {
    start: (customParameters) =>
      JSON.stringify({
        event: 'start',
        sequence_number: '1',
        stream_id: 'stream-1',
        start: {
          call_control_id: 'v3:call-1',
          custom_parameters: customParameters,
          media_format: { encoding: 'PCMU', sample_rate: 8000, channels: 1 },
        },
      }),
    media: (payload) =>
      JSON.stringify({
        event: 'media',
        stream_id: 'stream-1',
        media: { track: 'inbound', payload },
      }),
  },
})
