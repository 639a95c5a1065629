// What a bench call is made of: the scripted exchange, its zero-latency doubles (core's mocks: the
// same for this build and for Micdrop's server, so that what differs is the server), and for the
// benches that run in one process an in-memory socket and the call started on it.
import { EventEmitter } from 'node:events'
import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { loadMicdrop } from './micdrop.mjs'

export const ANSWER = 'Sure, here you go.'
export const UTTERANCE = 'Hello'

/** The doubles of a call: scripted, without latency. */
export const doubles = () => ({
  agent: new MockAgent({ answers: [ANSWER] }),
  stt: new MockSTT({ utterances: [UTTERANCE] }),
  tts: new MockTTS(),
})

/** What a server needs of a `ws` socket. */
export class MemorySocket extends EventEmitter {
  readyState = 1
  send() {}
}

/**
 * The function that starts a call on a socket with the doubles: this build's `MicdropServer`
 * (see build.mjs), or Micdrop's from the checkout `micdropDir` (see micdrop.mjs).
 */
export async function callStarter(micdropDir) {
  if (micdropDir) return loadMicdrop(micdropDir, { answer: ANSWER, utterance: UTTERANCE, doubles })
  const { MicdropServer } = await import('./build.mjs')
  return (socket) => new MicdropServer(socket, doubles())
}
