import { describe, expect, it } from 'vitest'
import { useBrowserCalls } from './call.js'
import { hasChromium } from './harness.js'

const GOODBYE = 'Goodbye, see you soon.'
const MS_PER_CHAR = 80

describe.skipIf(!hasChromium)('in Chromium: the goodbye is heard before EndCall', () => {
  const calls = useBrowserCalls({
    token: 'good',
    firstMessage: 'Hi.',
    msPerChar: MS_PER_CHAR,
    transcript: 'Bye',
    answer: GOODBYE,
    endCall: true,
  })

  it('emits EndCall only once the goodbye has fully played, though the server sent it earlier', async () => {
    const { page, connection } = await calls.start({ token: 'good' })
    await page.waitForFunction(() => window.openmic.events.some((e) => e.key === 'EndCall'), null, {
      timeout: 15000,
    })
    const events = await page.evaluate(() => window.openmic.events)
    const endCall = events.find((e) => e.key === 'EndCall')!
    // The goodbye: the last stretch of assistant speech before EndCall
    const goodbyeStart = events.findLast(
      (e) => e.key === 'isAssistantSpeaking' && e.value === true && e.t < endCall.t
    )!
    const goodbyeEnd = events.findLast(
      (e) => e.key === 'isAssistantSpeaking' && e.value === false && e.t <= endCall.t
    )!
    expect(goodbyeEnd.t).toBeGreaterThan(goodbyeStart.t)
    expect(endCall.value).toBe(false) // the speaker had stopped
    // All of it was played: the TTS streams at twice real time, so the server's EndCall came about
    // halfway through; the event waited for the rest.
    expect(endCall.t - goodbyeStart.t).toBeGreaterThan(GOODBYE.length * MS_PER_CHAR * 0.95)
    // Not cut by the user: nobody spoke over the goodbye
    expect(
      events.some((e) => e.key === 'isUserSpeaking' && e.value === true && e.t > goodbyeStart.t)
    ).toBe(false)
    expect(connection()!.closed).toBe(false)
  })
})
