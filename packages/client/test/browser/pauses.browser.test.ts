import { describe, expect, it } from 'vitest'
import { useBrowserCalls } from './call.js'
import { hasChromium } from './harness.js'
import { makeVoiceWav } from './wav.js'

// The fake user says something in two parts, 2 s in: 0.6 s of voice, a 350 ms pause (more than
// the volume VAD's 200 ms pause, less than its 600 ms end of speech), 0.6 s more. The server
// answers at pauses (`preemptive`): it is told of them, drops the answer it made at the first
// and answers the whole turn once.
const PAUSED_VOICE = makeVoiceWav(48000, { at: 0.6, length: 0.35 })

describe.skipIf(!hasChromium)('in Chromium, against a server that answers at pauses', () => {
  const calls = useBrowserCalls(
    {
      token: 'good',
      msPerChar: 20,
      transcript: 'Book a table',
      moreTranscripts: ['for two.'],
      answer: '',
      echo: true,
      preemptive: true,
    },
    PAUSED_VOICE
  )

  it('reports the pause, goes on in the same turn, and gets one answer to all of it', async () => {
    const { page, connection } = await calls.start({ token: 'good' })
    await page.waitForFunction(
      () => document.querySelectorAll('#conversation li').length >= 2,
      null,
      { timeout: 15000 }
    )
    const [user, answer] = await page.locator('#conversation li').allTextContents()
    expect(user).toBe('user: Book a table for two.')
    expect(answer).toMatch(/^assistant: You( said:( "Book( a( table( for( two\.")?)?)?)?)?)?$/)

    // What the client sent for the turn: the first part, the pause, the second part from just
    // before it came back, and the end (its last quiet a pause first)
    const frames = connection()!.received.flatMap((item) =>
      'text' in item ? [item.text] : ['audio']
    )
    const turn = frames.slice(frames.indexOf('StartSpeaking'), frames.indexOf('StopSpeaking') + 1)
    expect(turn.filter((frame, i) => frame !== 'audio' || turn[i - 1] !== 'audio')).toEqual([
      'StartSpeaking',
      'audio',
      'PauseSpeaking',
      'ResumeSpeaking',
      'audio',
      'PauseSpeaking',
      'StopSpeaking',
    ])
    // The answer made at the pause was never seen: one user message, never taken back
    const sent = connection()!.sent
    expect(sent.filter((text) => text.startsWith('CancelLastUserMessage'))).toEqual([])
    expect(sent.filter((text) => text.startsWith('Message {"role":"user"'))).toHaveLength(1)
  })
})
