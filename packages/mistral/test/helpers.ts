import { createFakeMistral, type FakeMistral } from '@openmic/testing'
import type { Readable } from 'node:stream'
import { afterEach, beforeEach } from 'vitest'
import { MistralAgent } from '../src/index.js'
import type { MistralAgentOptions } from '../src/index.js'

/** A fake Mistral server started before each test and closed after it. */
export function useFakeMistral(): { readonly server: FakeMistral } {
  const state = {} as { server: FakeMistral }
  beforeEach(async () => {
    state.server = await createFakeMistral()
  })
  afterEach(async () => {
    await state.server.close()
  })
  return state
}

/** A MistralAgent talking to `server` through the real SDK. */
export function mistralAgent(server: FakeMistral, options: Partial<MistralAgentOptions> = {}) {
  return new MistralAgent({
    apiKey: 'test-key',
    serverURL: server.serverURL,
    systemPrompt: 'You are a test assistant.',
    ...options,
  })
}

/** Reads a stream to its end. */
export async function readAll(stream: Readable): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += String(chunk)
  return text
}
