import { describe, expect, it } from 'vitest'
import { MockAgent } from '../mocks/MockAgent.js'
import { MockSTT } from '../mocks/MockSTT.js'
import { MockTTS } from '../mocks/MockTTS.js'
import { defaultProviderName } from './provider-name.js'

describe('providerName', () => {
  it("defaults to the class name without the part's suffix, in snake case", () => {
    expect(
      [new MockAgent(), new MockSTT(), new MockTTS()].map((part) => part.providerName)
    ).toEqual(['mock', 'mock', 'mock'])
    class AcmeVoiceTTS {}
    class HTTPGatewayAgent {}
    class Agent {}
    expect(defaultProviderName(new AcmeVoiceTTS(), 'TTS')).toBe('acme_voice')
    expect(defaultProviderName(new HTTPGatewayAgent(), 'Agent')).toBe('http_gateway')
    // Nothing left without the suffix: the class name as it is.
    expect(defaultProviderName(new Agent(), 'Agent')).toBe('Agent')
  })

  it('is what a provider says it is', () => {
    class CustomAgent extends MockAgent {
      override get providerName() {
        return 'openai'
      }
    }
    expect(new CustomAgent().providerName).toBe('openai')
  })
})
