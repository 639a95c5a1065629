import { MockTTS } from '@openmic/core'
import { audioBytes } from '@openmic/core/provider'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import {
  benchTtsGaps,
  formatTtsGaps,
  listenToAnswer,
  RealtimePlayer,
  type TtsGapsRound,
} from './tts-gaps.js'

describe('RealtimePlayer', () => {
  it('hears silence only when a chunk comes after the audio before it has played', () => {
    const player = new RealtimePlayer()
    expect(player.push(audioBytes(100), 1000)).toBe(0)
    expect(player.push(audioBytes(100), 1050)).toBe(0) // queued: plays from 1100 to 1200
    expect(player.playhead).toBe(1200)
    expect(player.push(audioBytes(100), 1300)).toBe(100)
    expect([player.firstAt, player.playhead]).toEqual([1000, 1400])
  })
})

describe('listenToAnswer', () => {
  it("resolves at AudioEnd with the answer's first audio, and leaves no listener", async () => {
    const tts = new MockTTS({ chunkMs: 40, chunkDelayMs: 5 })
    const before = performance.now()
    const heard = await listenToAnswer(tts, Readable.from(['Hello there.']))
    expect(heard.firstAudioAt).toBeGreaterThanOrEqual(before)
    expect(heard.longestSilenceMs).toBeGreaterThanOrEqual(0)
    expect(tts.listenerCount('Audio') + tts.listenerCount('AudioEnd')).toBe(0)
  })

  it('rejects with the error of Failed', async () => {
    const tts = new MockTTS({ error: new Error('TTS down') })
    await expect(listenToAnswer(tts, Readable.from(['Hello.']))).rejects.toThrow('TTS down')
  })
})

describe('benchTtsGaps', () => {
  it('warms up, then runs the rounds of both sides, and prints their table', async () => {
    const rawRounds: number[] = []
    const table = await benchTtsGaps({
      name: 'MockTTS',
      rawName: 'nothing',
      rounds: 3,
      ttfbMs: 0,
      answer: 'one sentence',
      tts: new MockTTS({ chunkMs: 40, chunkDelayMs: 5 }),
      text: () => Readable.from(['Hello there.']),
      raw: async (round) => {
        rawRounds.push(round)
        return 2
      },
    })
    expect(rawRounds).toEqual([-1, 0, 1, 2])
    const lines = table.split('\n')
    expect(lines[0]).toBe('3 answers of one sentence, time to first audio 0 ms scripted:')
    expect(lines[1]).toBe('| point | MockTTS | nothing |')
    expect(lines.at(-1)).toMatch(
      /^\| first audio − scripted 0 ms, p99 \| \d+\.\d ms \| 2\.0 ms \|$/
    )
  })
})

describe('formatTtsGaps', () => {
  it('prints the silences and the first audio of both sides as a Markdown table', () => {
    const rounds: TtsGapsRound[] = [1, 2, 3, 4].map((i) => ({
      silenceMs: i * 10,
      firstAudioMs: i,
      rawFirstAudioMs: i / 2,
    }))
    const bench = { name: 'MyTTS', rawName: 'raw', ttfbMs: 200, answer: 'three sentences' }
    expect(formatTtsGaps(bench, rounds).split('\n')).toEqual([
      '4 answers of three sentences, time to first audio 200 ms scripted:',
      '| point | MyTTS | raw |',
      '| --- | --- | --- |',
      '| longest silence in an answer, p50 | 30.0 ms | |',
      '| longest silence in an answer, p99 | 40.0 ms | |',
      '| longest silence in an answer, max | 40.0 ms | |',
      '| first audio − scripted 200 ms, p50 | 3.0 ms | 1.5 ms |',
      '| first audio − scripted 200 ms, p99 | 4.0 ms | 2.0 ms |',
    ])
  })
})
