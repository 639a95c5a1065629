import { PassThrough, type Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { MockSTT } from '../mocks/MockSTT.js'
import { STT } from '../stt/STT.js'
import { FallbackSTT } from './FallbackSTT.js'

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms))

/** An STT that fails after receiving `failAfterBytes` (or never answers when `silent`). */
class BrokenSTT extends STT {
  received = 0
  constructor(private readonly mode: { failAfterBytes?: number; silent?: boolean }) {
    super()
  }
  transcribe(audio: Readable): void {
    audio.on('data', (chunk: Buffer) => {
      this.received += chunk.length
      if (this.mode.failAfterBytes !== undefined && this.received >= this.mode.failAfterBytes) {
        this.emit('Failed', new Error('broken'))
      }
    })
  }
}

describe('FallbackSTT', () => {
  it('switches on failure and replays the utterance audio to the next STT', async () => {
    const backup = new MockSTT({ utterances: ['recovered'] })
    const stt = new FallbackSTT({
      factories: [() => new BrokenSTT({ failAfterBytes: 200 }), () => backup],
    })
    const heard: string[] = []
    stt.on('Transcript', (text) => heard.push(text))
    stt.on('Failed', () => heard.push('failed'))
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.write(Buffer.alloc(100))
    audio.write(Buffer.alloc(100))
    await tick()
    expect(stt.current).toBe(backup)
    audio.end(Buffer.alloc(50))
    await tick()
    expect(heard).toEqual(['recovered'])
    expect(backup.audioBytes).toBe(250)
  })

  it('switches when no transcript comes in time, and emits Failed only when the last one fails', async () => {
    const stt = new FallbackSTT({
      factories: [
        () => new BrokenSTT({ silent: true }),
        () => new BrokenSTT({ failAfterBytes: 1 }),
      ],
      transcriptTimeoutMs: 20,
    })
    const events: string[] = []
    stt.on('Transcript', (text) => events.push(text))
    stt.on('Failed', (error) => events.push(`failed: ${(error as Error).message}`))
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.end(Buffer.alloc(10))
    await tick(40)
    expect(events).toEqual(['failed: broken'])
    expect((stt.current as BrokenSTT).received).toBe(10)
  })

  it('signals the end of an utterance as the STT in use does, and forwards its TranscriptEnd', async () => {
    const stt = new FallbackSTT({
      factories: [
        () => new BrokenSTT({ failAfterBytes: 10 }),
        () => new MockSTT({ utterances: [{ transcripts: ['a', 'b'] }] }),
      ],
    })
    expect(stt.signalsTranscriptEnd).toBe(false)
    const events: string[] = []
    stt.on('Transcript', (text) => events.push(text))
    stt.on('TranscriptEnd', () => events.push('end'))
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.end(Buffer.alloc(20))
    await tick()
    expect(stt.signalsTranscriptEnd).toBe(true)
    expect(events).toEqual(['a', 'b', 'end'])
  })

  it('keeps using the first STT while it works', async () => {
    const first = new MockSTT({ utterances: ['one', 'two'] })
    let built = 0
    const stt = new FallbackSTT({ factories: [() => first, () => (built++, new MockSTT())] })
    const heard: string[] = []
    stt.on('Transcript', (text) => heard.push(text))
    for (let i = 0; i < 2; i++) {
      const audio = new PassThrough()
      stt.transcribe(audio)
      audio.end(Buffer.alloc(10))
      await tick()
    }
    expect(heard).toEqual(['one', 'two'])
    expect(built).toBe(0)
  })

  it('forwards the partials of the STT in use', async () => {
    const stt = new FallbackSTT({
      factories: [() => new MockSTT({ utterances: [{ transcripts: 'hi you', partials: ['hi'] }] })],
    })
    const events: string[] = []
    stt.on('Partial', (text) => events.push(`P:${text}`))
    stt.on('Transcript', (text) => events.push(`T:${text}`))
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.end(Buffer.alloc(320))
    await tick()
    expect(events).toEqual(['P:hi', 'T:hi you'])
  })

  it('says nothing more of an utterance once the last STT failed it, even if it answers late', async () => {
    const slow = new MockSTT({ utterances: [{ transcripts: 'too late', delayMs: 150 }, 'next'] })
    const stt = new FallbackSTT({ factories: [() => slow], transcriptTimeoutMs: 30 })
    const heard: string[] = []
    stt.on('Transcript', (text) => heard.push(text))
    stt.on('Failed', () => heard.push('failed'))
    const first = new PassThrough()
    stt.transcribe(first)
    first.end(Buffer.alloc(640))
    await tick(250)
    expect(heard).toEqual(['failed'])
    const second = new PassThrough()
    stt.transcribe(second)
    second.end(Buffer.alloc(640))
    await tick()
    expect(heard).toEqual(['failed', 'next'])
    stt.destroy()
  })

  it('tells each switch (Fallback) and names the STT in use', async () => {
    const stt = new FallbackSTT({
      factories: [() => new BrokenSTT({ failAfterBytes: 1 }), () => new MockSTT()],
    })
    const switches: unknown[] = []
    stt.on('Fallback', (fallback) => switches.push(fallback))
    expect(stt.providerName).toBe('broken')
    const audio = new PassThrough()
    stt.transcribe(audio)
    audio.write(Buffer.alloc(10))
    await tick()
    expect(switches).toEqual([{ from: 'broken', to: 'mock', error: new Error('broken') }])
    expect(stt.providerName).toBe('mock')
  })
})
