import type { MockTTSOptions, MockUtterance } from '@openmic/core'
import type { STTConformanceUtterance, TTSConformanceSpeak } from '../src/conformance/index.js'

/** The MockSTT script of a conformance utterance. */
export function mockUtterance(utterance: STTConformanceUtterance): MockUtterance {
  if (utterance.kind === 'failure') return { error: new Error('Scripted STT failure') }
  if (utterance.kind === 'empty') return ''
  if (utterance.kind === 'stall') return { transcripts: [] } // never answers
  return { transcripts: utterance.transcript, partials: utterance.partials }
}

/** Scripts MockTTS options (read at each `speak()`) for a conformance `speak()`. */
export function scriptMockTTS(options: MockTTSOptions, speak: TTSConformanceSpeak): void {
  options.error = speak.kind === 'failure' ? new Error('Scripted TTS failure') : undefined
  options.firstAudioDelayMs = speak.kind === 'stall' ? 60_000 : undefined
}
