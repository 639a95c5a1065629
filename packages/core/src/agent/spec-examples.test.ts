// The examples of the Micdrop Agent page, with only the import path changed
// (`@micdrop/server` → the core entry point). They must compile and behave as the page says.
import { describe, expect, expectTypeOf, it, vi } from 'vitest'
import { PassThrough } from 'stream'
import { Agent, AgentOptions, Logger, MicdropConversationMessage } from '../index.js'

interface CustomAgentOptions extends AgentOptions {
  apiKey: string
  model?: string
  settings?: any // Provider-specific settings
}

const DEFAULT_MODEL = 'gpt-4'

class CustomAgent extends Agent<CustomAgentOptions> {
  constructor(options: CustomAgentOptions) {
    super(options)
  }

  protected async generateAnswer(stream: PassThrough): Promise<void> {
    const answerCount = this.answerCount

    try {
      // Build messages for your AI provider
      const messages = this.conversation.map((msg) => ({
        role: msg.role,
        content: msg.content,
      }))

      // Make API call to your AI provider
      const response = await fetch('https://api.your-provider.com/chat', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${this.options.apiKey}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          messages,
          model: this.options.model || DEFAULT_MODEL,
          stream: true,
          ...this.options.settings,
        }),
      })

      if (!response.ok) {
        throw new Error(`API request failed: ${response.statusText}`)
      }

      const reader = response.body?.getReader()
      let fullResponse = ''

      while (reader) {
        // Check if this answer was cancelled
        if (answerCount !== this.answerCount) return

        const { done, value } = await reader.read()
        if (done) break

        // Parse streaming response (format depends on your provider)
        const chunk = new TextDecoder().decode(value)

        if (chunk) {
          this.log(`Answer chunk: "${chunk}"`)
          stream.write(chunk)
          fullResponse += chunk
        }
      }

      // Only add to conversation if this answer wasn't cancelled
      if (answerCount === this.answerCount) {
        this.addAssistantMessage(fullResponse)
      }
    } catch (error: any) {
      console.error('[CustomAgent] Error:', error)
    }
  }

  cancel(): void {
    if (!this.answering) return
    this.log('Cancel')

    // Increment answer count to cancel current generation
    this.answerCount++
  }
}

class EchoAgent extends Agent {
  protected async generateAnswer(stream: PassThrough): Promise<void> {
    // Get the last user message
    const lastUserMessage = this.conversation
      .filter((msg) => msg.role === 'user')
      .pop() as MicdropConversationMessage

    if (lastUserMessage) {
      // Simulate a delay before responding
      await new Promise((resolve) => setTimeout(resolve, 100))

      const response = `You said: "${lastUserMessage.content}"`

      // Stream the response
      stream.write(response)

      // Add to conversation
      this.addAssistantMessage(response)
    }
  }

  cancel(): void {
    // Nothing to cancel for this simple implementation
  }
}

describe('the spec examples', () => {
  it('EchoAgent streams "You said: ..." and records it', async () => {
    const echoAgent = new EchoAgent({
      systemPrompt: 'You are an echo agent that repeats what users say.',
    })
    const messages: MicdropConversationMessage[] = []
    echoAgent.on('Message', (message: MicdropConversationMessage) => {
      messages.push(message)
    })

    echoAgent.addUserMessage('Hello!')
    const stream = echoAgent.answer()

    const chunks: string[] = []
    stream.on('data', (chunk) => {
      chunks.push(chunk.toString())
    })
    await new Promise<void>((resolve) => {
      stream.on('end', async () => {
        echoAgent.destroy()
        resolve()
      })
    })

    expect(chunks.join('')).toBe('You said: "Hello!"')
    expect(echoAgent.conversation).toEqual([
      { role: 'system', content: 'You are an echo agent that repeats what users say.' },
      { role: 'user', content: 'Hello!' },
      { role: 'assistant', content: 'You said: "Hello!"' },
    ])
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant'])
  })

  it('CustomAgent compiles against the same API, and its cancel() ends the stream', async () => {
    expectTypeOf(CustomAgent).toBeConstructibleWith({ apiKey: 'k', systemPrompt: 's' })
    expectTypeOf<InstanceType<typeof CustomAgent>>().toMatchTypeOf<Agent<CustomAgentOptions>>()

    // A provider that sends one chunk, then stalls: openmic's cancel ends the stream anyway.
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('Hello'))
        },
      })
      return new Response(body, { status: 200 })
    })
    const agent = new CustomAgent({ apiKey: 'key', systemPrompt: 'You are helpful.' })
    agent.logger = new Logger('CustomAgent', () => {})
    agent.on('Message', (message) => {
      expectTypeOf(message).toEqualTypeOf<MicdropConversationMessage>()
    })
    const stream = agent.answer()
    const chunks: string[] = []
    const ended = new Promise((resolve) => stream.on('end', resolve))
    stream.on('data', (chunk) => {
      chunks.push(chunk.toString())
      agent.cancel()
    })
    await ended
    expect(chunks).toEqual(['Hello'])
    expect(fetchSpy).toHaveBeenCalledOnce()
    expect(agent.conversation).toHaveLength(1)
    fetchSpy.mockRestore()
  })
})
