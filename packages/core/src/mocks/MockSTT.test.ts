import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { MockSTT } from './MockSTT.js'

function collect(stt: MockSTT) {
  const events: string[] = []
  stt.on('Transcript', (text) => events.push(`T:${text}`))
  stt.on('Failed', (error) => events.push(`F:${(error as Error).message}`))
  stt.on('TranscriptEnd', () => events.push('end'))
  return events
}

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms))

describe('MockSTT', () => {
  it('emits the scripted transcripts of each utterance when its audio ends, and counts audio', async () => {
    const stt = new MockSTT({ utterances: ['Hello', { transcripts: ['a', 'b'] }] })
    const events = collect(stt)
    for (const bytes of [100, 200, 300]) {
      const audio = new PassThrough()
      const before = events.length
      stt.transcribe(audio)
      audio.write(Buffer.alloc(bytes))
      await tick()
      expect(events.length, 'nothing before the audio ends').toBe(before)
      audio.end()
      await tick()
    }
    expect(events).toEqual(['T:Hello', 'end', 'T:a', 'T:b', 'end', 'T:a', 'T:b', 'end'])
    expect(stt.audioBytes).toBe(600)
    expect(stt.calls).toBe(3)
  })

  it('signals the end of each utterance only when told it can (transcriptEnd)', async () => {
    const plain = new MockSTT({ utterances: [{ transcripts: ['a', 'b'] }], transcriptEnd: false })
    expect(plain.signalsTranscriptEnd).toBe(false)
    expect(new MockSTT().signalsTranscriptEnd).toBe(true)
    const events = collect(plain)
    const audio = new PassThrough()
    plain.transcribe(audio)
    audio.end(Buffer.alloc(10))
    await tick()
    expect(events).toEqual(['T:a', 'T:b'])
  })

  it('defaults to numbered user messages', async () => {
    const stt = new MockSTT()
    const events = collect(stt)
    for (let i = 0; i < 2; i++) {
      const audio = new PassThrough()
      stt.transcribe(audio)
      audio.end(Buffer.alloc(10))
    }
    await tick()
    expect(events).toEqual(['T:User message 1', 'end', 'T:User message 2', 'end'])
  })

  it('can emit while audio still flows, after a delay, or fail', async () => {
    const stt = new MockSTT({
      utterances: [
        { transcripts: 'early', emitOn: 'audio' },
        { transcripts: 'late', delayMs: 30 },
        { error: new Error('boom') },
      ],
    })
    const events = collect(stt)
    const first = new PassThrough()
    stt.transcribe(first)
    first.write(Buffer.alloc(10))
    await tick()
    expect(events).toEqual(['T:early', 'end'])

    const second = new PassThrough()
    stt.transcribe(second)
    second.end(Buffer.alloc(10))
    await tick(5)
    expect(events).toEqual(['T:early', 'end'])
    await tick(40)
    expect(events).toEqual(['T:early', 'end', 'T:late', 'end'])

    const third = new PassThrough()
    stt.transcribe(third)
    third.end(Buffer.alloc(10))
    await tick()
    expect(events).toEqual(['T:early', 'end', 'T:late', 'end', 'F:boom'])
  })

  it('emits nothing pending after destroy()', async () => {
    const stt = new MockSTT({ utterances: [{ transcripts: 'late', delayMs: 20 }] })
    const heard: string[] = []
    stt.on('Transcript', (text) => heard.push(text))
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.end(Buffer.alloc(10))
    await tick()
    stt.destroy()
    await tick(40)
    expect(heard).toEqual([])
  })

  it('emits scripted partials while audio arrives, before the transcript', async () => {
    const stt = new MockSTT({
      utterances: [{ transcripts: 'hello there', partials: ['hel', 'hello'] }],
    })
    const events = collect(stt)
    stt.on('Partial', (text) => events.push(`P:${text}`))
    const audio = new PassThrough()
    stt.transcribe(audio)
    for (let i = 0; i < 3; i++) audio.write(Buffer.alloc(320))
    audio.end()
    await tick()
    expect(events).toEqual(['P:hel', 'P:hello', 'T:hello there', 'end'])
  })
})
