import type { MockUtterance } from '@openmic/core'
import type { STTConformanceUtterance } from '../src/conformance/index.js'

/** The MockSTT script of a conformance utterance. */
export function mockUtterance(utterance: STTConformanceUtterance): MockUtterance {
  if (utterance.kind === 'failure') return { error: new Error('Scripted STT failure') }
  if (utterance.kind === 'empty') return ''
  return { transcripts: utterance.transcript, partials: utterance.partials }
}
