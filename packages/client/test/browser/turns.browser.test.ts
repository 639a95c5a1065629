import type { MicdropConversationItem, MicdropConversationMessage } from '@openmic/core'
import { describe, expect, it } from 'vitest'
import { useBrowserCalls } from './call.js'
import { hasChromium } from './harness.js'
import type { Connection } from './micdrop-server.js'

// The fake user says something at 2 s, then every 5 s (see VOICE): first the question, then, at
// 7 s, over the answer (8.85 s of audio from about 4 s on).
//
// The first two describe blocks follow the server's pause rule (docs/protocol.md): they need a
// server that answers the client's Hello (`resume: true`) and sends Caption frames.
const MS_PER_CHAR = 150
const STORY = 'Once upon a time a small fox lived in a quiet green forest.'
const PARAMS = JSON.stringify({ token: 'good' })

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

type PageEvents = Awaited<ReturnType<typeof assistantIntervals>>['events']

/** The captions the page showed, one list per answer (an answer's caption ends when it clears). */
function captionsByAnswer(events: PageEvents): string[][] {
  const answers: string[][] = [[]]
  for (const event of events) {
    if (event.key !== 'caption') continue
    if (event.value === '') answers.push([])
    else answers.at(-1)!.push(event.value as string)
  }
  return answers.filter((shown) => shown.length > 0)
}

/** Each time the caption cleared, an item was added to the conversation in the same StateChange. */
function expectCaptionsReplacedByMessages(events: PageEvents) {
  const cleared = events.filter((e) => e.key === 'caption' && e.value === '')
  expect(cleared.length).toBeGreaterThan(0)
  for (const clear of cleared) {
    expect(events.some((e) => e.key === 'messages' && e.t === clear.t)).toBe(true)
  }
}

/** The texts the client sent on a connection, in order. */
const textsOf = (call: Connection) =>
  call.received.flatMap((item) => ('text' in item ? [item.text] : []))

/**
 * The server settled every barge-in once, in order (docs/protocol.md, Barge-in): `Resume` or
 * `Interrupt` for one that paused the answer, `Interrupt` for any other `StartSpeaking` (the first
 * question's too, with nothing to cut). Returns the verdicts on the pauses.
 */
function expectEveryBargeInSettled(call: Connection): string[] {
  const texts = textsOf(call)
  const pausedBefore = texts.flatMap((text, i) =>
    text === 'StartSpeaking'
      ? [texts[i - 1]?.startsWith('Played {') && texts[i - 1]!.includes('"paused":true')]
      : []
  )
  const verdicts = call.sent.filter((text) => text === 'Resume' || text === 'Interrupt')
  expect(verdicts).toHaveLength(pausedBefore.length)
  verdicts.forEach((verdict, i) => {
    if (!pausedBefore[i]) expect(verdict, `barge-in ${i}`).toBe('Interrupt')
  })
  return verdicts.filter((_, i) => pausedBefore[i])
}

/** The client's Hello came right behind its params, and the server said it resumes. */
function expectHellos(call: Connection) {
  expect(textsOf(call).slice(0, 2)).toEqual([
    PARAMS,
    'Hello {"captions":true,"reportsPlaybackEnd":true}',
  ])
  expect(call.sent).toContain('Hello {"resume":true,"settlesBargeIns":true}')
}

describe.skipIf(!hasChromium)('in Chromium: a real interruption', () => {
  const calls = useBrowserCalls({
    token: 'good',
    msPerChar: MS_PER_CHAR,
    transcript: 'Tell me a story',
    moreTranscripts: ['Stop'],
    answer: STORY,
    moreAnswers: ['Okay.'],
  })

  it('the rest of the answer is dropped and the conversation keeps the words that were heard, as the caption showed them', async () => {
    const { page, connection } = await calls.start({ token: 'good' })
    await expect.poll(() => assistant(connection()!.messages).length, { timeout: 20000 }).toBe(2)
    const call: Connection = connection()!
    expectHellos(call)
    const [cut, next] = assistant(call.messages)
    const heardMs = cut!.metadata!.heardMs as number
    expect(cut!.metadata).toMatchObject({ interrupted: true, fullContent: STORY })
    expect(next!.content).toBe('Okay.')

    // The client reported where it paused, just before StartSpeaking; the server interrupted
    const texts = textsOf(call)
    const played = texts.findIndex((text) => text.startsWith('Played '))
    expect(JSON.parse(texts[played]!.slice('Played '.length))).toEqual({
      ms: expect.any(Number),
      paused: true,
    })
    expect(texts[played + 1]).toBe('StartSpeaking')
    expect(expectEveryBargeInSettled(call)).toEqual(['Interrupt'])

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

    // The caption showed the story's words as they were played, never past what the server kept,
    // and gave way to the cut message
    const { events: after } = await assistantIntervals(page)
    const [story] = captionsByAnswer(after)
    expect(story!.length).toBeGreaterThan(0)
    for (const caption of story!) expect(STORY.startsWith(caption), caption).toBe(true)
    expect(cut!.content.startsWith(story!.at(-1)!), story!.at(-1)).toBe(true)
    expectCaptionsReplacedByMessages(after)
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

  it('a cough pauses the answer, which then plays on where it paused, whole; its caption waits', async () => {
    const { page, connection } = await calls.start({ token: 'good' })
    await expect.poll(() => assistant(connection()!.messages).length, { timeout: 30000 }).toBe(1)
    const call: Connection = connection()!
    expectHellos(call)
    expect(assistant(call.messages)).toEqual([{ role: 'assistant', content: STORY }])
    // Each cough paused the answer and was found to be noise
    const onPauses = expectEveryBargeInSettled(call)
    expect(onPauses.length).toBeGreaterThan(0)
    expect(new Set(onPauses)).toEqual(new Set(['Resume']))
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

    // The caption grew with the story's words, stood still while the answer was paused, and gave
    // way to the message
    const { events } = await assistantIntervals(page)
    const [story, ...others] = captionsByAnswer(events)
    expect(others).toEqual([])
    expect(story!.length).toBeGreaterThan(1)
    for (const [i, caption] of story!.entries()) {
      expect(STORY.startsWith(caption), caption).toBe(true)
      if (i > 0) expect(caption.length).toBeGreaterThan(story![i - 1]!.length)
    }
    const pauses = events.filter((e) => e.key === 'speakerPaused')
    expect(pauses.length).toBeGreaterThanOrEqual(2)
    for (let i = 0; i < pauses.length; i += 2) {
      const [from, to] = [pauses[i]!.t, pauses[i + 1]!.t]
      expect(events.filter((e) => e.key === 'caption' && e.t > from && e.t < to)).toEqual([])
    }
    expectCaptionsReplacedByMessages(events)
    expect(await page.evaluate(() => window.openmic.state().caption)).toBe('')
  }, 40000)
})

describe.skipIf(!hasChromium)('in Chromium: a server that does not hold answers', () => {
  const calls = useBrowserCalls({
    token: 'good',
    msPerChar: MS_PER_CHAR,
    transcript: 'Tell me a story',
    moreTranscripts: ['Stop'],
    answer: STORY,
    moreAnswers: ['Okay.'],
    resumeAfterNoise: false,
  })

  it('barge-in drops the answer at once, as with a Micdrop server: never paused', async () => {
    const { page, connection } = await calls.start({ token: 'good' })
    await expect.poll(() => assistant(connection()!.messages).length, { timeout: 20000 }).toBe(2)
    const call: Connection = connection()!
    const [cut] = assistant(call.messages)
    expect(cut!.metadata).toMatchObject({ interrupted: true, fullContent: STORY })

    // What was heard, and that the rest was dropped: nothing for the server to settle
    const texts = textsOf(call)
    expect(texts.slice(0, 2)).toEqual([PARAMS, 'Hello {"captions":true,"reportsPlaybackEnd":true}'])
    const played = texts.findIndex((text) => text.startsWith('Played '))
    expect(JSON.parse(texts[played]!.slice('Played '.length))).toEqual({ ms: expect.any(Number) })
    expect(texts[played + 1]).toBe('StartSpeaking')
    expect(expectEveryBargeInSettled(call)).toEqual([])

    // Silent from the barge-in on, while the user speaks: the rest was dropped, not paused
    const { events } = await assistantIntervals(page)
    const firstSound = events.find((e) => e.key === 'isAssistantSpeaking' && e.value === true)!
    const bargeIn = events.find((e) => e.key === 'isUserSpeaking' && e.value && e.t > firstSound.t)!
    const done = events.find((e) => e.key === 'isUserSpeaking' && !e.value && e.t > bargeIn.t)!
    expect(
      events.some(
        (e) =>
          e.key === 'isAssistantSpeaking' && e.value === true && e.t > bargeIn.t && e.t < done.t
      )
    ).toBe(false)
    expect(events.some((e) => e.key === 'speakerPaused')).toBe(false)

    await expect
      .poll(() =>
        page.evaluate(() =>
          (window.openmic.state().conversation as Array<{ content?: string }>).map((i) => i.content)
        )
      )
      .toEqual(['Tell me a story', cut!.content, 'Stop', 'Okay.'])
  }, 40000)
})
