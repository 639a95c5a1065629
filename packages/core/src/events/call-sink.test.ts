import { describe, expect, it, vi } from 'vitest'
import { brokenAgent, readAll } from '../../test/helpers.js'
import { MockTTS } from '../mocks/MockTTS.js'
import { CALL_SINK, type CallSink } from './call-sink.js'

/** Makes `sink` the call of `part`, as the server does. */
function setCall(part: object, sink: CallSink | undefined) {
  ;(part as { [CALL_SINK]?: CallSink })[CALL_SINK] = sink
}

/** A call that records what it hears, and what the part's listeners had heard by then. */
function recordingCall(heardByListeners: () => number) {
  const heard: Array<{ part: object; event: string | symbol; arg: unknown; before: number }> = []
  const call: CallSink = {
    partEvent(part, event, arg) {
      heard.push({ part, event, arg, before: heardByListeners() })
    },
  }
  return { call, heard }
}

describe('a part and its call', () => {
  it('tells the call each event, with its argument, before any listener', () => {
    const tts = new MockTTS()
    const listened: unknown[] = []
    tts.on('Audio', (audio) => listened.push(audio))
    const { call, heard } = recordingCall(() => listened.length)
    setCall(tts, call)
    const audio = Buffer.alloc(4)
    tts.emit('Audio', audio)
    tts.emit('AudioEnd')
    expect(heard).toEqual([
      { part: tts, event: 'Audio', arg: audio, before: 0 },
      { part: tts, event: 'AudioEnd', arg: undefined, before: 1 },
    ])
    expect(listened).toEqual([audio])
  })

  it('counts the call as a listener: emit is true with no listener, and a failure is not warned of', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const agent = brokenAgent('the call hears this')
    expect(agent.emit('SkipAnswer')).toBe(false)
    const { call, heard } = recordingCall(() => 0)
    setCall(agent, call)
    expect(agent.emit('SkipAnswer')).toBe(true)
    expect(await readAll(agent.answer())).toBe('')
    expect(heard.map((h) => h.event)).toEqual(['SkipAnswer', 'Failed'])
    expect((heard[1]!.arg as Error).message).toBe('the call hears this')
    expect(warn).not.toHaveBeenCalled()
    warn.mockRestore()
  })

  it('stops telling the call once it is unset', () => {
    const tts = new MockTTS()
    const { call, heard } = recordingCall(() => 0)
    setCall(tts, call)
    setCall(tts, undefined)
    expect(tts.emit('AudioEnd')).toBe(false)
    expect(heard).toEqual([])
  })
})
