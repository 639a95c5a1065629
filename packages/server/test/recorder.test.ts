import { MockAgent, MockSTT, MockTTS } from '@openmic/core'
import { afterEach, expect, it } from 'vitest'
import {
  MicdropRecorder,
  MicdropServer,
  type MicdropAudioMessage,
  type MicdropRecording,
} from '../src/index.js'
import { TestClient, startServer } from './harness.js'

let stop: (() => Promise<void>) | undefined
afterEach(async () => {
  await stop?.()
  stop = undefined
})

it('pairs each user and assistant message with its audio, then completes at the end', async () => {
  const live: MicdropAudioMessage[] = []
  let complete: (recording: MicdropRecording) => void
  const completed = new Promise<MicdropRecording>((resolve) => (complete = resolve))
  const server = await startServer((socket) => {
    const micdrop = new MicdropServer(socket, {
      agent: new MockAgent({ answers: ['Fine, thanks.'] }),
      stt: new MockSTT({ utterances: ['How are you?'] }),
      tts: new MockTTS({ msPerChar: 10 }),
      firstMessage: 'Hello!',
    })
    const recorder = new MicdropRecorder(micdrop)
    recorder.on('AudioMessage', (message) => live.push(message))
    recorder.on('Complete', (recording) => complete(recording))
  })
  stop = server.close
  const client = await TestClient.connect(server.url)
  await client.waitFor((c) => c.count('audio') > 0)
  client.send('StartSpeaking')
  client.audio(3200)
  client.audio(1600)
  client.send('StopSpeaking')
  await client.waitFor((c) => c.count('Message:assistant') === 2)
  await client.settle()
  client.close()
  const recording = await completed

  expect(recording.messages.map((m) => [m.role, m.content, m.audio.length])).toEqual([
    ['assistant', 'Hello!', 6 * 10 * 32],
    ['user', 'How are you?', 4800],
    ['assistant', 'Fine, thanks.', 13 * 10 * 32],
  ])
  expect(live).toEqual(recording.messages)
  expect(recording.conversation.map((item) => item.role)).toEqual([
    'system',
    'assistant',
    'user',
    'assistant',
  ])
  expect(recording.duration).toBeGreaterThan(0)
})

it('keeps only the audio that was sent when an answer is interrupted', async () => {
  let complete: (recording: MicdropRecording) => void
  const completed = new Promise<MicdropRecording>((resolve) => (complete = resolve))
  const server = await startServer((socket) => {
    const micdrop = new MicdropServer(socket, {
      agent: new MockAgent({ answers: ['A rather long answer that will be cut.', 'Ok.'] }),
      stt: new MockSTT(),
      tts: new MockTTS({ chunkMs: 20, chunkDelayMs: 15 }),
    })
    new MicdropRecorder(micdrop).on('Complete', (recording) => complete(recording))
  })
  stop = server.close
  const client = await TestClient.connect(server.url)
  client.utterance()
  await client.waitFor((c) => c.count('Message:assistant') === 1 && c.count('audio') >= 2)
  client.utterance()
  await client.waitFor((c) => c.count('Message:assistant') === 2)
  await client.settle()
  const firstAnswerFrames = client.received.findIndex(
    (r, i) => i > 0 && r.kind === 'text' && r.text.includes('User message 2')
  )
  const sentBeforeBargeIn = client.received
    .slice(0, firstAnswerFrames)
    .reduce((sum, r) => sum + (r.kind === 'audio' ? r.audio.length : 0), 0)
  client.close()
  const recording = await completed
  const cut = recording.messages[1]!
  expect(cut.content).toBe('A rather long answer that will be cut.')
  expect(cut.audio.length).toBe(sentBeforeBargeIn)
  expect(cut.audio.length).toBeLessThan(38 * 10 * 32)
  expect(recording.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
})
