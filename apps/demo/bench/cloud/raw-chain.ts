// The reference a pipeline's framework time is read against: the same turn made with the
// providers' own clients and nothing of openmic (no agent, STT or TTS class, no MicdropServer, no
// client). Against the pipeline's very fakes, scripted the same way, it streams the same speech to
// the STT at the same pace, ends the utterance, streams the model's answer to the conversation so
// far (the same messages a pipeline's agent sends: its system prompt, then every turn's user and
// assistant messages), asks the TTS for the answer's first sentence, and stops its clock at the
// first audio byte. What the pipeline's framework time has beyond it is what openmic adds (with
// the playing client's share, which the mocks' row shows).
//
// The clients are opened before the turns, as openmic's classes open theirs with the call: what
// is timed is a turn, not a connection.
import { setTimeout as sleep } from 'node:timers/promises'

/** A message of the conversation, in the shape every provider's chat takes. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** A streaming transcription session: one utterance at a time. */
export interface RawSTT {
  /** Resolves once the next utterance's audio can go (its socket open, its session ready). */
  ready(): Promise<void>
  /** Sends a chunk of the utterance (PCM16 16 kHz mono). */
  send(chunk: Buffer): void
  /** Ends the utterance (its protocol's commit, flush or stop); resolves with its transcript. */
  end(): Promise<string>
  close(): void
}

/** One streamed model call: `onText` gets each text delta; resolves once the stream has ended. */
export type RawModel = (messages: ChatMessage[], onText: (delta: string) => void) => Promise<void>

/** A TTS: one `RawSpeech` per answer. */
export interface RawTTS {
  /** Resolves once its socket is open (a TTS over HTTP has none). */
  ready?(): Promise<void>
  /**
   * Starts an answer's speech as the model is asked (what a protocol sets up before the text:
   * a context, a request's setup), as openmic's TTS classes start theirs with the answer.
   */
  begin(): RawSpeech
  close(): void
}

export interface RawSpeech {
  /** Asks for the speech of a sentence; resolves at its first audio byte. */
  say(sentence: string): Promise<void>
  /**
   * Lets the rest go (the request or context is cancelled: the reference needs no more); resolves
   * once nothing more comes for it, so that a turn's leftovers do not run into the next one.
   */
  end(): Promise<void> | void
}

export interface RawClients {
  stt: RawSTT
  model: RawModel
  tts: RawTTS
}

/** The speech is streamed as the playing client streams it: 100 ms chunks, 100 ms apart. */
const CHUNK_BYTES = 3200

/** The first sentence of a text: up to its first . ! ? or … followed by a blank. */
function firstSentence(text: string): string | undefined {
  const end = /[.!?…]+["'”’)\]]*\s/.exec(text)
  return end ? text.slice(0, end.index + end[0].length).trim() : undefined
}

export class RawChain {
  private readonly conversation: ChatMessage[]

  constructor(
    private readonly clients: RawClients,
    systemPrompt: string
  ) {
    this.conversation = [{ role: 'system', content: systemPrompt }]
  }

  /**
   * One turn: `speech` streamed in real time, then the end of the utterance (the instant the STT
   * has all the audio, which starts the clock), its transcript, the model's answer and the first
   * sentence's first audio byte (which stops it). Resolves with that time, in ms.
   */
  async turn(speech: Buffer): Promise<number> {
    const { stt, model, tts } = this.clients
    await Promise.all([stt.ready(), tts.ready?.()])
    for (let offset = 0; offset < speech.length; offset += CHUNK_BYTES) {
      stt.send(speech.subarray(offset, offset + CHUNK_BYTES))
      await sleep(100)
    }
    const endedAt = performance.now()
    const transcript = await stt.end()
    this.conversation.push({ role: 'user', content: transcript })
    const answer = tts.begin()
    let text = ''
    let firstAudio: Promise<number> | undefined
    const say = (sentence: string) => {
      firstAudio = answer.say(sentence).then(() => performance.now())
      // Awaited below, once the model's stream has ended: a failure is not unhandled meanwhile.
      firstAudio.catch(() => {})
    }
    // The first sentence is spoken as soon as it is complete; the rest of the stream is read
    // meanwhile, as an agent reads it while its first sentence is spoken.
    await model([...this.conversation], (delta) => {
      text += delta
      const sentence = firstAudio ? undefined : firstSentence(text)
      if (sentence) say(sentence)
    })
    if (!firstAudio) say(text.trim())
    try {
      return (await firstAudio!) - endedAt
    } finally {
      this.conversation.push({ role: 'assistant', content: text })
      await answer.end()
    }
  }

  close(): void {
    this.clients.stt.close()
    this.clients.tts.close()
  }
}
