import type { MicdropConversationItem, MicdropConversationMessage } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { useBrowserCalls } from './call.js'
import { hasChromium } from './harness.js'
import type { Connection } from './micdrop-server.js'

// The fake user says something at 2 s, then every 5 s (see VOICE): first the question, then, at
// 7 s, over the answer (8.85 s of audio from about 4 s on).
const MS_PER_CHAR = 150
const STORY = 'Once upon a time a small fox lived in a quiet green forest.'

/** The words of STORY whose end (MockTTS timings: MS_PER_CHAR per character) was played. */
function wordsHeard(heardMs: number): string {
  const ends = [...STORY.matchAll(/\S+/g)].map((match) => match.index + match[0].length)
  const heard = ends.filter((end) => end * MS_PER_CHAR <= heardMs)
  return heard.length === 0 ? '' : STORY.slice(0, heard.at(-1))
}

/** Times (page clock) the assistant's voice started and stopped being heard. */
async function assistantIntervals(page: import('playwright-core').Page) {
  const events = await page.evaluate(() => window.openmic.events)
  const intervals: Array<[number, number]> = []
  let start: number | undefined
  for (const event of events) {
    if (event.key !== 'isAssistantSpeaking') continue
    if (event.value === true) start = event.t
    else if (start !== undefined) {
      intervals.push([start, event.t])
      start = undefined
    }
  }
  return { events, intervals }
}

const assistant = (items: MicdropConversationItem[]) =>
  items.filter((item): item is MicdropConversationMessage => item.role === 'assistant')

describe.skipIf(!hasChromium)('in Chromium: a real interruption', () => {
  const calls = useBrowserCalls({
    token: 'good',
    msPerChar: MS_PER_CHAR,
    transcript: 'Tell me a story',
    moreTranscripts: ['Stop'],
    answer: STORY,
    moreAnswers: ['Okay.'],
  })

  it('the rest of the answer is dropped and the conversation keeps the words that were heard', async () => {
    const { page, connection } = await calls.start({ token: 'good' })
    await expect.poll(() => assistant(connection()!.messages).length, { timeout: 20000 }).toBe(2)
    const call: Connection = connection()!
    const [cut, next] = assistant(call.messages)
    const heardMs = cut!.metadata!.heardMs as number
    expect(cut!.metadata).toMatchObject({ interrupted: true, fullContent: STORY })
    expect(next!.content).toBe('Okay.')

    // The client reported where it paused, just before StartSpeaking; the server interrupted
    const texts = call.received.flatMap((item) => ('text' in item ? [item.text] : []))
    const played = texts.findIndex((text) => text.startsWith('Played '))
    expect(JSON.parse(texts[played]!.slice('Played '.length))).toEqual({
      ms: expect.any(Number),
      paused: true,
    })
    expect(texts[played + 1]).toBe('StartSpeaking')
    expect(call.sent).toContain('Interrupt')
    expect(call.sent).not.toContain('Resume')

    // What was heard, as the page saw it: from the answer's first sound to the user's voice
    const { events } = await assistantIntervals(page)
    const firstSound = events.find((e) => e.key === 'isAssistantSpeaking' && e.value === true)!
    const bargeIn = events.find((e) => e.key === 'isUserSpeaking' && e.value && e.t > firstSound.t)!
    const seen = bargeIn.t - firstSound.t
    console.log(`heard ${heardMs} ms of the answer; the page saw ${seen.toFixed(0)} ms`)
    expect(heardMs).toBeGreaterThan(1000)
    expect(Math.abs(heardMs - seen)).toBeLessThan(250)
    // Cut after the last word whose end was played, never inside one
    expect(cut!.content).toBe(wordsHeard(heardMs))
    expect(cut!.content.length).toBeLessThan(STORY.length)

    // The client shows the same conversation
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window.openmic.state().conversation as Array<{ content?: string }>).map((i) => i.content)
        )
      )
      .toEqual(['Tell me a story', cut!.content, 'Stop', 'Okay.'])
  }, 40000)
})

describe.skipIf(!hasChromium)('in Chromium: a false interruption', () => {
  const calls = useBrowserCalls({
    token: 'good',
    msPerChar: MS_PER_CHAR,
    transcript: 'Tell me a story',
    // The next utterances are only noise: the STT finds no words in them
    moreTranscripts: [''],
    answer: STORY,
  })

  it('a cough pauses the answer, which then plays on where it paused, whole', async () => {
    const { page, connection } = await calls.start({ token: 'good' })
    await expect.poll(() => assistant(connection()!.messages).length, { timeout: 30000 }).toBe(1)
    const call: Connection = connection()!
    expect(assistant(call.messages)).toEqual([{ role: 'assistant', content: STORY }])
    expect(call.sent).toContain('Resume')
    expect(call.sent).not.toContain('Interrupt')
    // The message goes when the server reckons the audio played: the speaker is about to finish
    await page.waitForFunction(() => !window.openmic.state().isAssistantSpeaking, null, {
      timeout: 3000,
    })

    // Played in several parts (paused over the cough), nothing dropped and nothing played twice:
    // the time the voice was heard adds up to the answer's length
    const { intervals } = await assistantIntervals(page)
    const heard = intervals.reduce((sum, [from, to]) => sum + (to - from), 0)
    console.log(
      `false interruption: the answer played in ${intervals.length} parts, ${heard.toFixed(0)} ms in all (${STORY.length * MS_PER_CHAR} ms of audio)`
    )
    expect(intervals.length).toBeGreaterThanOrEqual(2)
    expect(Math.abs(heard - STORY.length * MS_PER_CHAR)).toBeLessThan(400)
    expect(
      await page.evaluate(() =>
        (window.openmic.state().conversation as Array<{ content?: string }>).map((i) => i.content)
      )
    ).toEqual(['Tell me a story', STORY])
  }, 40000)
})
