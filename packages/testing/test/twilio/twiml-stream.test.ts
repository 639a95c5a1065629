import twilio from 'twilio'
import { describe, expect, it } from 'vitest'
import { readTwimlStream } from '../../src/twilio/index.js'

describe('readTwimlStream', () => {
  it("reads the stream URL and parameters of the SDK's TwiML, decoded", () => {
    const response = new twilio.twiml.VoiceResponse()
    const stream = response.connect().stream({ url: 'wss://example.com/s' })
    stream.parameter({ name: 'quote', value: `"<it's> & more"` })
    stream.parameter({ name: 'empty', value: '' })
    expect(readTwimlStream(response.toString())).toEqual({
      url: 'wss://example.com/s',
      parameters: { quote: `"<it's> & more"`, empty: '' },
    })
  })

  it('finds no stream in TwiML that connects none, or only starts one', () => {
    expect(readTwimlStream('<Response><Say>Hi</Say></Response>')).toBeUndefined()
    expect(
      readTwimlStream('<Response><Start><Stream url="wss://example.com/s"/></Start></Response>')
    ).toBeUndefined()
    expect(
      readTwimlStream("<Response><Connect><Stream url='wss://a/b'/></Connect></Response>")
    ).toEqual({ url: 'wss://a/b', parameters: {} })
  })
})
