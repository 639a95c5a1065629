import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalAgent, LocalSTT, LocalTTS } from '../dist/index.js'
import { seconds, speak, transcribe } from './helpers.js'

// A whole turn offline, as the server runs it: user audio → LocalSTT → LocalAgent → LocalTTS.
describe('a spoken turn with LocalSTT, LocalAgent and LocalTTS', () => {
  let stt: LocalSTT
  let tts: LocalTTS

  beforeAll(async () => {
    stt = new LocalSTT()
    tts = new LocalTTS()
    await Promise.all([stt.ready(), tts.ready()])
  })
  afterAll(() => {
    stt.destroy()
    tts.destroy()
  })

  it('answers a spoken "what time is it" with the time, spoken', async () => {
    const agent = new LocalAgent({ now: () => new Date('2026-11-29T22:42:00Z'), timeZone: 'UTC' })
    const question = await transcribe(stt, await speak(tts, 'What time is it?'))
    agent.addUserMessage(question)
    const reply = await speak(tts, agent.answer())
    expect(agent.conversation.at(-1)).toEqual({ role: 'assistant', content: 'It is 10:42 PM.' })
    expect(seconds(reply)).toBeGreaterThan(1)
    expect(await transcribe(stt, reply)).toMatch(/\bten forty two\b/)
  })

  it('ends the call on a spoken "goodbye"', async () => {
    const agent = new LocalAgent()
    let endCall = false
    agent.on('EndCall', () => (endCall = true))
    agent.addUserMessage(await transcribe(stt, await speak(tts, 'Goodbye.')))
    const reply = await speak(tts, agent.answer())
    expect(seconds(reply)).toBeGreaterThan(0.5)
    expect(endCall).toBe(true)
  })
})
