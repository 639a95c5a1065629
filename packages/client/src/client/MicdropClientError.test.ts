import { describe, expect, it } from 'vitest'
import { errorFromClose, errorFromMic, isRecoverableClose } from './MicdropClientError.js'

describe('close code → error', () => {
  it.each([
    [4401, 'Unauthorized'],
    [4400, 'BadRequest'],
    [4404, 'NotFound'],
    [1011, 'InternalServer'],
    [1006, 'Connection'],
    [1009, 'Connection'],
    [4999, 'Connection'],
  ])('%i → %s', (code, expected) => {
    expect(errorFromClose(code)?.code).toBe(expected)
  })

  it('is no error for a normal close', () => {
    expect(errorFromClose(1000)).toBeUndefined()
  })

  it("keeps the server's reason in the message", () => {
    expect(errorFromClose(4400, 'Invalid params')?.message).toMatch(/Invalid params/)
  })

  it('reconnects only after closes that may go away (network, restart), never after a refusal', () => {
    expect([1001, 1005, 1006, 1012, 1013].every(isRecoverableClose)).toBe(true)
    expect([1000, 1009, 1011, 4400, 4401, 4404].some(isRecoverableClose)).toBe(false)
  })
})

describe('microphone failure → error', () => {
  it('says the permission was denied', () => {
    const error = errorFromMic(
      Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' })
    )
    expect(error.code).toBe('MicPermissionDenied')
    expect(error.message).toMatch(/denied/i)
  })

  it('says there is no microphone', () => {
    expect(errorFromMic({ name: 'NotFoundError' }).code).toBe('MicNotFound')
    expect(errorFromMic({ name: 'OverconstrainedError' }).code).toBe('MicNotFound')
  })

  it('keeps the message of other failures', () => {
    const error = errorFromMic(new Error('device busy'))
    expect(error.code).toBe('Mic')
    expect(error.message).toMatch(/device busy/)
  })
})
