import { Agent, MockSTT, MockTTS, STT, TTS, type MockTTSOptions } from '@openmic/core'
import type { PassThrough, Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'

/** A MockTTS whose audio samples all hold the number of the `speak()` call that produced them. */
export class TaggedTTS extends MockTTS {
  constructor(options: MockTTSOptions = {}) {
    super(options)
    this.on('Audio', () => {}) // keep eventemitter3 happy when nothing listens yet
  }

  override emit(event: any, ...args: any[]): boolean {
    if (event === 'Audio') {
      const tagged = Buffer.alloc((args[0] as Buffer).length)
      for (let i = 0; i + 1 < tagged.length; i += 2) tagged.writeInt16LE(this.calls, i)
      return super.emit('Audio', tagged)
    }
    return super.emit(event, ...args)
  }
}

/** The `speak()` number an audio frame of {@link TaggedTTS} came from. */
export function tagOf(audio: Buffer): number {
  return audio.readInt16LE(0)
}

/** A MockSTT that keeps the audio of each utterance (each `transcribe()`), as it received it. */
export class RecordingSTT extends MockSTT {
  private readonly chunks: Buffer[][] = []

  override transcribe(audio: Readable): void {
    const chunks: Buffer[] = []
    this.chunks.push(chunks)
    audio.on('data', (chunk: Buffer) => chunks.push(chunk))
    super.transcribe(audio)
  }

  /** The audio of each utterance so far, whole. */
  get utterances(): Buffer[] {
    return this.chunks.map((chunks) => Buffer.concat(chunks))
  }
}

/** A TTS that throws from `speak()`: the server must survive it. */
export class ThrowingTTS extends TTS {
  speak(_text: Readable): void {
    throw new Error('TTS exploded')
  }
  cancel(): void {}
}

/** An STT that throws from `transcribe()`. */
export class ThrowingSTT extends STT {
  transcribe(_audio: Readable): void {
    throw new Error('STT exploded')
  }
}

/** One action of a {@link ScriptedAgent}'s answer. */
export type AgentStep =
  { say: string } | 'save' | 'endCall' | 'skipAnswer' | 'cancelLastUserMessage' | { tool: string }

/**
 * A custom agent as a user would write one, playing the same script per answer either
 * synchronously (everything before its first `await`, valid per the Agent API) or asynchronously
 * (an `await` before each step, as with a network request).
 */
export class ScriptedAgent extends Agent {
  constructor(
    private readonly kind: 'sync' | 'async',
    private readonly steps: AgentStep[]
  ) {
    super({ systemPrompt: 'Scripted.' })
  }

  protected async generateAnswer(stream: PassThrough, signal: AbortSignal): Promise<void> {
    let said = ''
    for (const step of this.steps) {
      if (this.kind === 'async') await sleep(10)
      if (signal.aborted) return
      if (step === 'save') this.addAssistantMessage(said)
      else if (step === 'endCall') this.endCall()
      else if (step === 'skipAnswer') this.skipAnswer()
      else if (step === 'cancelLastUserMessage') this.cancelLastUserMessage()
      else if ('say' in step) {
        said += step.say
        stream.write(step.say)
      } else this.callTool(step.tool)
    }
  }

  cancel(): void {}

  private callTool(name: string) {
    const toolCallId = `call_${this.answerCount}`
    this.addToolMessage({ role: 'tool_call', toolCallId, toolName: name, parameters: '{}' })
    this.addToolMessage({ role: 'tool_result', toolCallId, toolName: name, output: '"done"' })
    this.emit('ToolCall', { name, parameters: {}, output: 'done' })
  }
}
