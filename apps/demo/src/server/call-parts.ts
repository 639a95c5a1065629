import type { Agent, RealtimeAgent, STT, TTS } from '@openmic/core'
import type { StoreOperation } from '@openmic/server'
import type { DemoConfig } from './config.js'
import { createAgent, createRealtime, createSTT, createTTS } from './providers.js'

/** What a call is built from; tests replace them. */
export interface CallFactories {
  createAgent(config: DemoConfig): Promise<Agent>
  createSTT(config: DemoConfig): Promise<STT>
  createTTS(config: DemoConfig): Promise<TTS>
  /** With `OPENMIC_REALTIME`: the speech-to-speech voice, in place of the three others. */
  createRealtime?(config: DemoConfig): Promise<RealtimeAgent>
}

export const defaultFactories: CallFactories = {
  createAgent,
  createSTT,
  createTTS,
  createRealtime,
}

/** A call's agent, STT and TTS, or its speech-to-speech voice (the server's options). */
export type CallParts = { agent: Agent; stt: STT; tts: TTS } | { realtime: RealtimeAgent }

/**
 * Builds a call's agent, STT and TTS together (or its realtime voice, when the configuration
 * names one). If one fails, those already built are destroyed (a local STT or TTS holds a worker
 * thread) and the first failure is thrown.
 */
export async function createCallParts(
  factories: CallFactories,
  config: DemoConfig
): Promise<CallParts> {
  if (config.realtime !== 'off') {
    const create = factories.createRealtime ?? createRealtime
    return { realtime: await create(config) }
  }
  const [agent, stt, tts] = await Promise.allSettled([
    factories.createAgent(config),
    factories.createSTT(config),
    factories.createTTS(config),
  ])
  if (agent.status === 'fulfilled' && stt.status === 'fulfilled' && tts.status === 'fulfilled') {
    return { agent: agent.value, stt: stt.value, tts: tts.value }
  }
  for (const part of [agent, stt, tts]) {
    if (part.status === 'fulfilled') part.value.destroy()
  }
  throw [agent, stt, tts].find((part) => part.status === 'rejected')!.reason
}

/** A failing conversation store is reported on the console; the call goes on. */
export function warnOnStoreError(call: {
  on(event: 'StoreError', listener: (error: unknown, operation: StoreOperation) => void): unknown
}): void {
  call.on('StoreError', (error, operation) => {
    console.warn(`Conversation store ${operation} failed:`, (error as Error).message)
  })
}
