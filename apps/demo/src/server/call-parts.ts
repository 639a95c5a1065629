import type { Agent, STT, TTS } from '@openmic/core'
import type { StoreOperation } from '@openmic/server'
import type { DemoConfig } from './config.js'
import { createAgent, createSTT, createTTS } from './providers.js'

/** What a call is built from; tests replace them. */
export interface CallFactories {
  createAgent(config: DemoConfig): Promise<Agent>
  createSTT(config: DemoConfig): Promise<STT>
  createTTS(config: DemoConfig): Promise<TTS>
}

export const defaultFactories: CallFactories = { createAgent, createSTT, createTTS }

/** A call's agent, STT and TTS. */
export interface CallParts {
  agent: Agent
  stt: STT
  tts: TTS
}

/**
 * Builds a call's agent, STT and TTS together. If one fails, those already built are destroyed
 * (a local STT or TTS holds a worker thread) and the first failure is thrown.
 */
export async function createCallParts(
  factories: CallFactories,
  config: DemoConfig
): Promise<CallParts> {
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
