// Gladia's raw STT, as Gladia's docs show its live API: `POST /v2/live` with `fetch`, then a
// WebSocket to the session's URL.
import type { RawSTT } from '../raw-chain.js'
import { JsonSocket } from './json-socket.js'

/** What a session asks for: PCM16 16 kHz, final transcripts and the end of the recording. */
const SESSION = {
  encoding: 'wav/pcm',
  sample_rate: 16_000,
  bit_depth: 16,
  channels: 1,
  messages_config: {
    receive_partial_transcripts: false,
    receive_final_transcripts: true,
    receive_lifecycle_events: true,
    receive_post_processing_events: false,
    receive_acknowledgments: false,
  },
}

/**
 * One live session per utterance (`stop_recording` ends a session), created before the utterance
 * starts, outside the timed turn. Audio goes as binary frames; `stop_recording` ends it; its final
 * transcripts are the transcript once `end_recording` says the last one came.
 */
export function gladiaLiveSTT(baseURL: string): RawSTT {
  let session: Promise<JsonSocket> | undefined
  let socket: JsonSocket | undefined
  const create = async () => {
    const response = await fetch(`${baseURL}/v2/live`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gladia-key': 'k' },
      body: JSON.stringify(SESSION),
    })
    if (!response.ok) throw new Error(`Gladia: HTTP ${response.status}`)
    const { url } = (await response.json()) as { url: string }
    const opened = new JsonSocket(url, {}, (message) =>
      message.type === 'error' ? JSON.stringify(message) : undefined
    )
    await opened.opened
    return opened
  }
  return {
    ready: async () => {
      socket = await (session ??= create())
    },
    send: (chunk) => socket!.ws.send(chunk),
    end: async () => {
      const finals: string[] = []
      const ended = socket!.next((message) => {
        const data = message.data as { is_final?: boolean; utterance?: { text?: string } }
        if (message.type === 'transcript' && data?.is_final) finals.push(data.utterance!.text!)
        return message.type === 'end_recording' ? true : undefined
      })
      socket!.send({ type: 'stop_recording' })
      await ended
      session = undefined
      return finals.join(' ')
    },
    close: () => socket?.close(),
  }
}
