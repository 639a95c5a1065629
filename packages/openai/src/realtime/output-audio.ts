import { MICDROP_AUDIO_FORMAT, Resampler } from '@openmic/core/provider'
import { REALTIME_SAMPLE_RATE } from '../stt/session-update.js'

/** PCM16 24 kHz: bytes per ms. */
const BYTES_PER_MS = (REALTIME_SAMPLE_RATE * 2) / 1000

/**
 * The model's speech, item by item: each spoken item's 24 kHz audio resampled to openmic's 16 kHz
 * as it comes (its own resampler: items never bleed into each other), and how much of it came,
 * in ms (what a truncation may not exceed).
 */
export class OutputAudio {
  private readonly items = new Map<string, { resampler: Resampler; ms: number }>()

  /** Audio of `itemId` as it came from the API; returns it at 16 kHz. */
  write(itemId: string, audio: Buffer): Buffer {
    let item = this.items.get(itemId)
    if (!item) {
      item = {
        resampler: new Resampler({
          fromRate: REALTIME_SAMPLE_RATE,
          toRate: MICDROP_AUDIO_FORMAT.sampleRate,
        }),
        ms: 0,
      }
      this.items.set(itemId, item)
    }
    item.ms += audio.length / BYTES_PER_MS
    return item.resampler.write(audio)
  }

  /** The item's audio ended: the resampler's tail. */
  end(itemId: string): Buffer {
    return this.items.get(itemId)?.resampler.end() ?? Buffer.alloc(0)
  }

  /** How much of the item's audio came, in ms. */
  ms(itemId: string): number {
    return this.items.get(itemId)?.ms ?? 0
  }

  /** The session is over: its items are gone. */
  clear(): void {
    this.items.clear()
  }
}
