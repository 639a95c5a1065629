import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SentenceTTS } from '@openmic/core/provider'
import { describeTTSConformance, type TTSConformanceSpeak } from '../src/conformance/index.js'

// An HTTP TTS (SentenceTTS over fetch, one request a sentence) against a small server on
// 127.0.0.1: the suite's checks hold with real sockets, keep-alive connections and aborted
// requests, as they must for the providers' own fakes.

/** 100 ms of a 300 Hz tone, PCM16 16 kHz. */
const TONE = Buffer.alloc(3200)
for (let i = 0; i < 1600; i++)
  TONE.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / 16000)), i * 2)

class HttpTTS extends SentenceTTS {
  constructor(private readonly url: string) {
    super({ stallTimeoutMs: 300 })
  }

  protected async *synthesize(sentence: string, signal: AbortSignal): AsyncIterable<Buffer> {
    const response = await fetch(this.url, { method: 'POST', body: sentence, signal })
    if (!response.ok) throw new Error(`HttpTTS: HTTP ${response.status}`)
    for await (const chunk of response.body!) yield Buffer.from(chunk)
  }
}

/** Answers each sentence with its tone in three chunks (cut at odd sizes), or as scripted. */
async function startSpeechServer() {
  let mode: TTSConformanceSpeak['kind'] = 'speech'
  const open = new Set<ServerResponse>()
  const server: Server = createServer((request, response) => {
    request.resume()
    if (mode === 'failure') return void response.writeHead(500).end('down')
    if (mode === 'stall') return void open.add(response) // never answers
    response.writeHead(200, { 'content-type': 'audio/pcm' })
    const parts = [TONE.subarray(0, 1001), TONE.subarray(1001, 2000), TONE.subarray(2000)]
    const send = () => {
      const part = parts.shift()
      if (!part || response.destroyed) return void response.end()
      response.write(part)
      setTimeout(send, 10)
    }
    send()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/speech`,
    script: (kind: TTSConformanceSpeak['kind']) => (mode = kind),
    close: async () => {
      for (const response of open) response.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

describeTTSConformance('SentenceTTS over HTTP', {
  stallTimeoutMs: 300,
  make: async () => {
    const server = await startSpeechServer()
    return {
      tts: new HttpTTS(server.url),
      next: (speak) => void server.script(speak.kind),
      teardown: () => server.close(),
    }
  },
})
