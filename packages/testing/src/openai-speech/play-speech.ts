import type { ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { sendErrorReply, type RecordedExchange } from '../sse-server/recorded-exchange.js'
import { speechErrorBody } from './speech-request-problem.js'
import { pcmTone, SPEECH_SAMPLE_RATE } from './tone.js'
import type { FakeOpenaiSpeechReply, RecordedOpenaiSpeechRequest } from './types.js'

/** What playing a reply needs besides the reply itself. */
export interface PlaySpeechContext extends RecordedExchange<RecordedOpenaiSpeechRequest> {
  res: ServerResponse
  /** Length of the default tone for an input text, in ms. */
  tone(input: string): number
  now(): number
}

const BYTES_PER_MS = (SPEECH_SAMPLE_RATE * 2) / 1000

/** Writes one scripted reply to `res`. Stops early once the connection is closed. */
export async function playSpeech(
  reply: FakeOpenaiSpeechReply,
  context: PlaySpeechContext
): Promise<void> {
  const { res } = context
  switch (reply.type) {
    case 'reset':
      return context.reset()
    case 'stall':
      await context.closed
      return
    case 'error': {
      if (reply.delayMs) await sleep(reply.delayMs)
      if (!open(res)) return
      return sendErrorReply(res, {
        ...reply,
        body:
          reply.body ??
          speechErrorBody(`Fake error ${reply.status}`, { type: errorType(reply.status) }),
      })
    }
    case 'audio':
      return playAudio(reply, context)
  }
}

async function playAudio(
  reply: Extract<FakeOpenaiSpeechReply, { type: 'audio' }>,
  context: PlaySpeechContext
): Promise<void> {
  const { res, request } = context
  const input = String((request.body as { input?: unknown }).input ?? '')
  const audio =
    typeof reply.audio === 'function'
      ? reply.audio(request)
      : (reply.audio ?? pcmTone(context.tone(input)))
  const chunkMs = reply.chunkMs ?? 40
  const chunkBytes = Math.max(2, Math.round(chunkMs * BYTES_PER_MS) & ~1)
  const cutAt = (ms: number | undefined) =>
    ms === undefined ? Infinity : Math.round(ms * BYTES_PER_MS) & ~1
  const stallAt = cutAt(reply.stallAfterMs)
  const resetAt = cutAt(reply.resetAfterMs)
  const limit = Math.min(audio.length, stallAt, resetAt)

  if (reply.firstByteMs) await sleep(reply.firstByteMs)
  if (!open(res)) return
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    ...reply.headers,
  })
  // Pace against the clock of the first chunk, so that delays do not add up.
  const start = context.now()
  let written = 0
  for (let offset = 0; offset < limit; offset += chunkBytes) {
    if (offset > 0 && reply.chunkDelayMs !== undefined && reply.chunkDelayMs !== 0) {
      const due =
        reply.chunkDelayMs === 'realtime'
          ? offset / BYTES_PER_MS
          : (offset / chunkBytes) * reply.chunkDelayMs
      const wait = start + due - context.now()
      if (wait > 0) await sleep(wait)
    }
    if (!open(res)) return
    const chunk = audio.subarray(offset, Math.min(offset + chunkBytes, limit))
    request.firstByteAt ??= context.now()
    written += chunk.length
    request.audioBytes = written
    if (!res.write(chunk)) await drained(res, context.closed)
  }
  if (!open(res)) return
  if (limit === stallAt && limit < audio.length) return void (await context.closed)
  if (limit === resetAt && limit < audio.length) return context.reset()
  request.endedAt = context.now()
  res.end()
}

function open(res: ServerResponse): boolean {
  return res.writable && !res.destroyed
}

function drained(res: ServerResponse, closed: Promise<void>): Promise<void> {
  return Promise.race([new Promise<void>((resolve) => res.once('drain', resolve)), closed])
}

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_exceeded'
  if (status >= 500) return 'server_error'
  return 'invalid_request_error'
}
