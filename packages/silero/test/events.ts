import type { VADSpeechEvent } from '@openmic/core'
import type { SileroVAD } from '../src/index.js'

/** One event of a VAD, as recorded by {@link record}. */
export type Recorded =
  { type: 'SpeechStart' | 'SpeechEnd'; atMs: number } | { type: 'Failed'; error: unknown }

/** Records every event of `vad`, in order. */
export function record(vad: SileroVAD): Recorded[] {
  const events: Recorded[] = []
  vad.on('SpeechStart', ({ atMs }: VADSpeechEvent) => events.push({ type: 'SpeechStart', atMs }))
  vad.on('SpeechEnd', ({ atMs }: VADSpeechEvent) => events.push({ type: 'SpeechEnd', atMs }))
  vad.on('Failed', (error) => events.push({ type: 'Failed', error }))
  return events
}

/** Feeds `audio` in pieces of `bytes` (the last one shorter), then waits until it is analysed. */
export async function feed(vad: SileroVAD, audio: Buffer, bytes = audio.length): Promise<void> {
  for (let offset = 0; offset < audio.length; offset += bytes) {
    vad.process(audio.subarray(offset, offset + bytes))
  }
  await vad.idle()
}

/** Speech start and end pairs of the recorded events (throws on anything else). */
export function pairs(events: Recorded[]): Array<{ startMs: number; endMs: number }> {
  const found: Array<{ startMs: number; endMs: number }> = []
  for (let i = 0; i < events.length; i += 2) {
    const [start, end] = [events[i], events[i + 1]]
    if (start?.type !== 'SpeechStart' || end?.type !== 'SpeechEnd') {
      throw new Error(`not start/end pairs: ${JSON.stringify(events)}`)
    }
    found.push({ startMs: start.atMs, endMs: end.atMs })
  }
  return found
}
