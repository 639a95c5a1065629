import { describe, expect, it } from 'vitest'
import { useBrowserCalls } from './call.js'
import { hasChromium } from './harness.js'
import type { Received } from './micdrop-server.js'
import { toneFrequency, VOICE } from './wav.js'

describe.skipIf(!hasChromium)('in Chromium, against a MicdropServer', () => {
  const calls = useBrowserCalls({
    token: 'good',
    // 300 ms a character: the fake user talks 2 s in, over the greeting when it plays by then
    // (a loaded machine may start it later)
    firstMessage: 'Hi! Welcome, how can I help?',
    msPerChar: 300,
    transcript: 'Hello there',
    answer: 'You said hello',
  })
  const start = calls.start

  it('sends StartSpeaking, 16 kHz PCM16 in 100 ms chunks and StopSpeaking, and shows the conversation', async () => {
    const call = await start({ token: 'good' })
    const { page, connection } = call
    expect(call.result).toEqual({ ok: true })
    await page.waitForFunction(
      () => document.querySelectorAll('#conversation li').length >= 3,
      null,
      {
        timeout: 10000,
      }
    )
    // The greeting is cut where the user spoke over it, and the answer is shown once heard; the
    // fake user talks again over it (5 s loop): maybe cut
    const [welcome, user, answer] = await page.locator('#conversation li').allTextContents()
    expect(welcome).toMatch(/^assistant: Hi!( Welcome,( how can I help\?)?)?$/)
    expect(user).toBe('user: Hello there')
    expect(answer).toMatch(/^assistant: You( said( hello)?)?$/)

    const received = connection()!.received
    expect(received[0]).toMatchObject({ text: JSON.stringify({ token: 'good' }) })
    const begin = received.findIndex((item) => 'text' in item && item.text === 'StartSpeaking')
    const end = received.findIndex((item) => 'text' in item && item.text === 'StopSpeaking')
    expect(begin).toBeGreaterThan(0)
    expect(end).toBeGreaterThan(begin)
    const chunks = received.slice(begin + 1, end).map((item) => (item as { audio: Buffer }).audio)
    expect(chunks.every(Boolean)).toBe(true)
    expect(chunks.slice(0, -1).every((chunk) => chunk.length === 3200)).toBe(true)
    expect(chunks.at(-1)!.length).toBeLessThanOrEqual(3200)

    const audio = Buffer.concat(chunks)
    const pcm = new Int16Array(audio.buffer, audio.byteOffset, audio.length / 2)
    // Pre-roll + voice + the silence the VAD waits for: about 0.3 + 1.2 + 0.6 s at 16 kHz
    const seconds = pcm.length / 16000
    expect(seconds).toBeGreaterThan(1.7)
    expect(seconds).toBeLessThan(2.6)
    const loud = pcm.findIndex((s) => Math.abs(s) > 2000)
    let last = pcm.length - 1
    while (Math.abs(pcm[last]!) <= 2000) last--
    // The first syllable is kept: about 300 ms of what came before the voice is sent too
    expect(loud / 16000).toBeGreaterThan(0.15)
    expect(loud / 16000).toBeLessThan(0.45)
    // The voice arrives whole (1.2 s), at its pitch: really 16 kHz
    expect((last - loud) / 16000).toBeCloseTo(VOICE.length, 1)
    expect(toneFrequency(pcm.subarray(loud, last))).toBeCloseTo(VOICE.hz, -1)
  })

  it('barge-in: the speaker goes silent within 100 ms of confirmed speech', async () => {
    const { page } = await start({ token: 'good' })
    await page.waitForFunction(() => window.openmic.bargeIns.length > 0, null, { timeout: 8000 })
    const [{ latency, levelBefore }] = await page.evaluate(() => window.openmic.bargeIns)
    // The rest of the answer the server had streamed is not played while the user speaks
    await page.waitForFunction(() =>
      window.openmic.events.some((e) => e.key === 'isUserSpeaking' && e.value === false)
    )
    const events = await page.evaluate(() => window.openmic.events)
    const spoke = events.find((e) => e.key === 'isUserSpeaking' && e.value === true)!
    const done = events.find((e) => e.key === 'isUserSpeaking' && e.value === false)!
    expect(
      events.some(
        (e) => e.key === 'isAssistantSpeaking' && e.value === true && e.t > spoke.t && e.t < done.t
      )
    ).toBe(false)
    // More rounds, driven through the VAD in the silence after the fake user's sentence
    const driven = await page.evaluate(() => window.openmic.measureBargeIns(5))
    const all = [latency, ...driven].sort((a, b) => a - b)
    const median = all[Math.floor(all.length / 2)]!
    console.log(
      `barge-in: confirmed speech → speaker silent in ${latency.toFixed(1)} ms from the microphone (output level before: ${levelBefore.toFixed(1)} dBFS); ${all.length} rounds: median ${median.toFixed(1)} ms, max ${all.at(-1)!.toFixed(1)} ms`
    )
    // The assistant was audible (a 0.3 tone is about -13 dBFS), then silent within 100 ms
    expect(levelBefore).toBeGreaterThan(-30)
    expect(all.length).toBeGreaterThanOrEqual(3)
    expect(median).toBeLessThan(100)
  })

  it('reconnects after the server drops the socket, re-sends the params and goes on', async () => {
    const { page, connection } = await start({ token: 'good', user: 'ada' })
    const first = connection()!
    const before = calls.server.connections.length
    calls.server.dropAll()
    await page.waitForFunction(
      () => window.openmic.events.some((e) => e.key === 'isReconnecting' && e.value === true),
      null,
      { timeout: 3000 }
    )
    await page.waitForFunction(
      () => {
        const state = window.openmic.state()
        return state.isStarted && !state.isReconnecting
      },
      null,
      { timeout: 5000 }
    )
    const second = calls.server.connections[before]!
    expect(second).not.toBe(first)
    expect(second.params).toEqual({ token: 'good', user: 'ada' })
    // The call goes on over the new socket: the next utterance reaches the server
    await expect
      .poll(
        () =>
          second.received.some((item: Received) => 'text' in item && item.text === 'StartSpeaking'),
        {
          timeout: VOICE.loop * 1000 + 2000,
        }
      )
      .toBe(true)
    expect(await page.evaluate(() => window.openmic.state().error)).toBeUndefined()
  })

  it('surfaces a 4401 close as an Unauthorized error and ends the call', async () => {
    const { page } = await start({ token: 'wrong' })
    await page.waitForFunction(
      () => document.getElementById('error')!.textContent === 'Unauthorized'
    )
    const state = await page.evaluate(() => window.openmic.state())
    expect(state).toMatchObject({ error: 'Unauthorized', isStarted: false, isMicStarted: false })
    // The fake devices were listed once the microphone was allowed
    expect((state.micDevices as Array<{ label: string }>).length).toBeGreaterThan(0)
  })

  it('maps a missing microphone to a MicNotFound error with a clear message', async () => {
    const { page } = await start({ token: 'good' })
    const error = await page.evaluate(() =>
      window.openmic.client.mic.start('no-such-device').then(
        () => undefined,
        (error: { code: string; message: string }) => ({ code: error.code, message: error.message })
      )
    )
    expect(error).toEqual({
      code: 'MicNotFound',
      message: expect.stringMatching(/no microphone/i),
    })
  })
})
