import { MockAgent, MockSTT, MockTTS, type MicdropConversationItem } from '@openmic/core'
import { expect, it } from 'vitest'
import {
  MicdropRecorder,
  MicdropServer,
  type MicdropAudioMessage,
  type MicdropRecording,
} from '../src/index.js'
import { closeAfterEach, finalItems, TestClient, startServer, until } from './harness.js'

const cleanup = closeAfterEach()

it('pairs each user and assistant message with its audio, then completes at the end', async () => {
  const live: MicdropAudioMessage[] = []
  let complete: (recording: MicdropRecording) => void
  const completed = new Promise<MicdropRecording>((resolve) => (complete = resolve))
  let kept: MicdropConversationItem[] = []
  const server = await startServer((socket) => {
    const micdrop = new MicdropServer(socket, {
      agent: new MockAgent({ answers: ['Fine, thanks.'] }),
      stt: new MockSTT({ utterances: ['How are you?'] }),
      tts: new MockTTS({ msPerChar: 10 }),
      firstMessage: 'Hello!',
    })
    kept = finalItems(micdrop)
    const recorder = new MicdropRecorder(micdrop)
    recorder.on('AudioMessage', (message) => live.push(message))
    recorder.on('Complete', (recording) => complete(recording))
  })
  cleanup.stop = server.close
  const client = await TestClient.connect(server.url)
  await until(() => kept.length === 1) // the greeting was heard
  client.send('StartSpeaking')
  client.audio(3200)
  client.audio(1600)
  client.send('StopSpeaking')
  await until(() => kept.length === 3) // the answer was heard
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

it('keeps the text and the audio that were heard when an answer is interrupted', async () => {
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
  cleanup.stop = server.close
  const client = await TestClient.connect(server.url)
  client.utterance()
  await client.waitFor((c) => c.count('audio') >= 8)
  const sentBeforeBargeIn = client.audioBytes()
  client.utterance()
  await client.waitFor((c) => c.count('Message:user') === 2 && c.answeredLast)
  await client.settle()
  client.close()
  const recording = await completed
  const cut = recording.messages[1]!
  expect(cut.item.metadata).toMatchObject({
    interrupted: true,
    fullContent: 'A rather long answer that will be cut.',
  })
  expect('A rather long answer that will be cut.'.startsWith(cut.content)).toBe(true)
  expect(cut.content.length).toBeLessThan(38)
  expect(cut.audio.length).toBe(cut.item.metadata!.heardMs * 32)
  expect(cut.audio.length).toBeLessThanOrEqual(sentBeforeBargeIn)
  expect(recording.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
  expect(recording.messages[3]!.audio.length).toBe(3 * 10 * 32)
})
