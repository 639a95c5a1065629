import { describe, expect, it } from 'vitest'
import {
  parseMediaStreamFrame,
  readCommonMediaStreamEvent,
  readCustomParameters,
  writeMediaStreamCommand,
} from './media-stream-wire.js'

const read = (message: object) => readCommonMediaStreamEvent(message as Record<string, any>)

describe('the carriers’ shared media stream wire', () => {
  it('says why a frame is not a message', () => {
    expect(parseMediaStreamFrame('{oops')).toMatch(/^not JSON: \{oops/)
    expect(parseMediaStreamFrame('[1]')).toBe('not an object')
    expect(parseMediaStreamFrame('null')).toBe('not an object')
    expect(parseMediaStreamFrame('{"event":"stop"}')).toEqual({ event: 'stop' })
  })

  it('reads media, dtmf and mark, and leaves the carrier its own events', () => {
    expect(read({ event: 'media', media: { payload: '/38=' } })).toEqual({
      event: 'media',
      payload: Buffer.from([0xff, 0x7f]),
    })
    expect(read({ event: 'media', media: { payload: 'not base64!' } })).toMatch(/not base64/)
    expect(read({ event: 'media', media: {} })).toMatch(/not base64/)
    expect(read({ event: 'dtmf', dtmf: { digit: '#' } })).toEqual({ event: 'dtmf', digit: '#' })
    expect(read({ event: 'dtmf', dtmf: { digit: 5 } })).toMatch(/without a digit/)
    expect(read({ event: 'mark', mark: { name: 'm1' } })).toEqual({ event: 'mark', name: 'm1' })
    expect(read({ event: 'mark' })).toMatch(/without a name/)
    expect(read({ event: 'start', start: {} })).toBeUndefined()
  })

  it('reads custom parameters: strings kept, anything else left out and named', () => {
    expect(readCustomParameters({ token: 'abc', n: 1, ok: true, list: ['a'], none: null })).toEqual(
      {
        parameters: { token: 'abc' },
        ignored: [
          'the custom parameter "n": a number, not a string',
          'the custom parameter "ok": a boolean, not a string',
          'the custom parameter "list": an array, not a string',
          'the custom parameter "none": null, not a string',
        ],
      }
    )
    expect(readCustomParameters(undefined)).toEqual({ parameters: {}, ignored: [] })
    expect(readCustomParameters('token=abc')).toEqual({
      parameters: {},
      ignored: ['the custom parameters: a string, not an object'],
    })
  })

  it('writes media, mark and clear, with the carrier’s stream id when it has one', () => {
    const twilio = { streamSid: 'MZ1' }
    expect(
      JSON.parse(writeMediaStreamCommand({ event: 'media', payload: '/w==' }, twilio))
    ).toEqual({ event: 'media', streamSid: 'MZ1', media: { payload: '/w==' } })
    expect(JSON.parse(writeMediaStreamCommand({ event: 'mark', name: 'm1' }))).toEqual({
      event: 'mark',
      mark: { name: 'm1' },
    })
    expect(JSON.parse(writeMediaStreamCommand({ event: 'clear' }, twilio))).toEqual({
      event: 'clear',
      streamSid: 'MZ1',
    })
  })
})
