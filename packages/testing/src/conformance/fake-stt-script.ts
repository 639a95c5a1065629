import type { STTConformanceSetup, STTConformanceUtterance } from './stt-types.js'

/** What {@link scriptFakeSTT} asks of a fake STT provider: every fake STT of this kit has it. */
export interface ScriptableFakeSTT {
  /** Queues an in-band error as the answer to the next utterance. */
  replyError(message: string): unknown
  /** Queues an answer that never comes. */
  replyStall(): unknown
  /** Closes every open connection (a close 1000), resolving once each is closed. */
  closeConnections(code?: number): Promise<void>
}

/**
 * The provider side of an STT conformance setup on a fake server of this kit: `speech` scripts a
 * transcript the way the provider sends it; a failure is the fake's in-band error, a stall an
 * answer that never comes, and an empty utterance needs nothing; `closeConnection()` closes every
 * connection with 1000 and waits until the client has the close frame.
 *
 * @example
 * make: async () => {
 *   const fake = await createFakeMistralRealtime()
 *   return {
 *     stt: new MistralSTT({ apiKey: 'test', serverURL: fake.serverURL }),
 *     ...scriptFakeSTT(fake, ({ transcript, deltas }) => fake.replyTranscript(transcript, { deltas })),
 *     teardown: () => fake.close(),
 *   }
 * }
 */
export function scriptFakeSTT(
  fake: ScriptableFakeSTT,
  speech: (utterance: Extract<STTConformanceUtterance, { kind: 'speech' }>) => unknown
): Required<Pick<STTConformanceSetup, 'next' | 'closeConnection'>> {
  return {
    next: (utterance) => {
      if (utterance.kind === 'speech') speech(utterance)
      else if (utterance.kind === 'failure') fake.replyError('Scripted transcription failure')
      else if (utterance.kind === 'stall') fake.replyStall()
    },
    closeConnection: () => fake.closeConnections(1000),
  }
}
