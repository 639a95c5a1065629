import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { useBrowserCalls } from './call.js'
import { hasChromium } from './harness.js'

// The fake microphone says "Hello, can you hear me?" (espeak-ng), 2 s in, every 6.4 s
const speech = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'speech.wav')

describe.skipIf(!hasChromium)('in Chromium, the Silero VAD', () => {
  const calls = useBrowserCalls(
    {
      token: 'good',
      firstMessage: 'Hi!',
      msPerChar: 10,
      transcript: 'Hello, can you hear me?',
      answer: 'Loud and clear.',
    },
    speech
  )

  it('loads its model and wasm from the app (never a CDN) and detects real speech', async () => {
    const call = await calls.start({ token: 'good' }, { vad: 'silero' })
    const page = call.page
    expect(call.result).toEqual({ ok: true })
    // Silero hears the sentence: the server gets an utterance and the answer comes back
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('#conversation li')].some(
          (li) => li.textContent === 'assistant: Loud and clear.'
        ),
      null,
      { timeout: 15000 }
    )
    expect(calls.site.requests).toEqual(
      expect.arrayContaining([
        '/vad/vad.worklet.bundle.min.js',
        '/vad/silero_vad_v5.onnx',
        expect.stringMatching(/^\/vad\/ort-wasm.*\.wasm$/),
      ])
    )
    const origin = new URL(calls.site.url).origin
    const elsewhere = call.requests.filter(
      (url) => !url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:')
    )
    expect(elsewhere).toEqual([])

    const texts = call
      .connection()!
      .received.flatMap((item) => ('text' in item ? [item.text] : ['audio']))
    const begin = texts.indexOf('StartSpeaking')
    expect(begin, texts.join(' ')).toBeGreaterThan(0)
    expect(texts.slice(begin + 1, texts.indexOf('StopSpeaking')), texts.join(' ')).toContain(
      'audio'
    )
  }, 45000)
})
