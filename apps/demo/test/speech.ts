import { Readable } from 'node:stream'
import { LocalTTS } from '@openmic/local'

/** `text` spoken by flite (through LocalTTS), as PCM16 16 kHz mono: a real user's question. */
export async function speakPcm(text: string): Promise<Buffer> {
  const tts = new LocalTTS()
  const chunks: Buffer[] = []
  try {
    await new Promise<void>((done, fail) => {
      tts.on('Audio', (audio) => chunks.push(audio))
      tts.on('AudioEnd', done)
      tts.on('Failed', fail)
      tts.speak(Readable.from([text]))
    })
  } finally {
    tts.destroy()
  }
  return Buffer.concat(chunks)
}
