import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  CHROMIUM_PATH,
  chromiumArgs,
  createFakeOpenaiRealtime,
  encodeWav,
  silencePcm,
  type FakeOpenaiRealtime,
} from '@openmic/testing'
import type { TTS } from '@openmic/core'
import type { FastifyInstance } from 'fastify'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/server/app.js'
import { loadConfig } from '../src/server/config.js'
import { createAgent, createSTT, createTTS } from '../src/server/providers.js'
import { speakPcm } from './speech.js'

const demoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const artifacts = join(demoDir, '.artifacts')

/** Speaks `text` with flite into a WAV: 2.5 s of silence, the words, 10 s of silence. */
async function spokenWav(text: string, name: string): Promise<string> {
  const path = join(artifacts, `${name}.wav`)
  writeFileSync(
    path,
    encodeWav(Buffer.concat([silencePcm(2.5), await speakPcm(text), silencePcm(10)]))
  )
  return path
}

/** Records, in the page, the frames the server sends: `audio` for binary ones, the command word for text. */
function recordFrames(page: Page) {
  return page.addInitScript(() => {
    const frames: string[] = []
    ;(window as unknown as { frames_: string[] }).frames_ = frames
    const Native = window.WebSocket
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols)
        this.addEventListener('message', (event: MessageEvent) => {
          frames.push(typeof event.data === 'string' ? event.data.split(' ')[0]! : 'audio')
        })
      }
    } as typeof WebSocket
  })
}

async function launch(wav: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: chromiumArgs({ fakeAudioFile: wav, loop: false }),
  })
}

/** A page of the demo at `url`, its microphone playing `wav`, a call started (its browser kept in `browsers`). */
async function startCall(url: string, wav: string, browsers: Browser[]): Promise<Page> {
  const browser = await launch(wav)
  browsers.push(browser)
  const page = await browser.newPage()
  page.on('pageerror', (error) => console.error('[page error]', error.message))
  await recordFrames(page)
  await page.goto(url)
  await page.getByTestId('start').click()
  return page
}

describe('the demo, in Chromium, with offline speech and the local agent', () => {
  let app: FastifyInstance
  let url: string
  let audioBytes = 0
  const browsers: Browser[] = []

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    execFileSync('node', [join(demoDir, 'scripts', 'build-web.mjs')], { stdio: 'inherit' })
    const config = loadConfig({ PORT: '0' })
    app = await buildApp(config, {
      createAgent,
      createSTT,
      createTTS: async (c) => {
        const tts: TTS = await createTTS(c)
        tts.on('Audio', (audio) => (audioBytes += audio.length))
        return tts
      },
    })
    await app.listen({ host: '127.0.0.1', port: 0 })
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`
  }, 60_000)

  // One browser at a time: Chromium's fake microphone glitches when the CPU is short
  afterEach(async () => {
    await Promise.all(browsers.splice(0).map((browser) => browser.close()))
  })

  afterAll(async () => {
    await app?.close()
  })

  const call = (wav: string) => startCall(url, wav, browsers)

  it('answers "what time is it" with the time, spoken', async () => {
    const wav = await spokenWav('What time is it?', 'what-time-is-it')
    const page = await call(wav)
    const user = page.getByTestId('message-user').first()
    await user.waitFor({ timeout: 20_000 })
    expect((await user.textContent())?.toLowerCase()).toContain('time')
    const answer = page
      .getByTestId('message-assistant')
      .filter({ hasText: /It is \d{1,2}:\d{2} [AP]M/ })
    await answer.waitFor({ timeout: 20_000 })
    await expect.poll(() => page.getByTestId('message-tool_call').count()).toBeGreaterThan(0)
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (window as unknown as { frames_: string[] }).frames_.filter((f) => f === 'audio').length
        )
      )
      .toBeGreaterThan(5)
    expect(audioBytes).toBeGreaterThan(16_000)
    await page.screenshot({ path: join(artifacts, 'demo.png'), fullPage: true })
  }, 60_000)

  it('ends the call on "goodbye", EndCall coming after the last audio frame', async () => {
    const wav = await spokenWav('Thank you, goodbye. Bye bye.', 'goodbye')
    const page = await call(wav)
    await page
      .getByTestId('call-ended')
      .waitFor({ timeout: 30_000 })
      .catch(async (error: unknown) => {
        // What was heard and answered, so a failure says why (recognition, or the turn itself)
        console.error('conversation:', await page.locator('.conversation').innerText())
        throw error
      })
    const frames = await page.evaluate(() => (window as unknown as { frames_: string[] }).frames_)
    const endCall = frames.indexOf('EndCall')
    expect(endCall).toBeGreaterThan(-1)
    expect(frames.lastIndexOf('audio')).toBeLessThan(endCall)
    expect(frames.slice(0, endCall)).toContain('audio')
    const texts = await page.getByTestId('message-assistant').allTextContents()
    expect(texts.at(-1)).toContain('Goodbye')
    // The page hangs up on EndCall, which the client emits once the goodbye finished playing
    await page.getByTestId('start').waitFor({ timeout: 10_000 })
  }, 60_000)
})

describe('the demo, in Chromium, with OPENMIC_REALTIME=openai (a fake Realtime API)', () => {
  let app: FastifyInstance
  let fake: FakeOpenaiRealtime
  let url: string
  const browsers: Browser[] = []

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    execFileSync('node', [join(demoDir, 'scripts', 'build-web.mjs')], { stdio: 'inherit' })
    fake = await createFakeOpenaiRealtime({ apiKey: 'sk-e2e' })
    const config = loadConfig({
      PORT: '0',
      OPENMIC_REALTIME: 'openai',
      OPENAI_API_KEY: 'sk-e2e',
      OPENAI_BASE_URL: fake.baseURL,
    })
    app = await buildApp(config)
    await app.listen({ host: '127.0.0.1', port: 0 })
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`
  }, 60_000)

  afterAll(async () => {
    await Promise.all(browsers.splice(0).map((browser) => browser.close()))
    await app?.close()
    await fake?.close()
  })

  it("the browser client's call: greeted, heard, answered with a tool call, ended after the goodbye", async () => {
    fake.replyResponse('Hello! Ask me anything.', { msPerChar: 30 }) // generateFirstMessage
    fake.replyTranscript('Goodbye.')
    fake.replyResponse('', { toolCalls: [{ name: 'end_call' }] })
    fake.replyResponse('Goodbye, take care.', { msPerChar: 30 })
    const page = await startCall(url, await spokenWav('Goodbye.', 'realtime-goodbye'), browsers)
    await page
      .getByTestId('call-ended')
      .waitFor({ timeout: 30_000 })
      .catch(async (error: unknown) => {
        console.error('conversation:', await page.locator('.conversation').innerText())
        throw error
      })
    const frames = await page.evaluate(() => (window as unknown as { frames_: string[] }).frames_)
    const endCall = frames.indexOf('EndCall')
    expect(endCall).toBeGreaterThan(-1)
    expect(frames.lastIndexOf('audio')).toBeLessThan(endCall)
    const heard = await page.getByTestId('message-user').allTextContents()
    expect(heard).toHaveLength(1)
    expect(heard[0]).toContain('Goodbye.')
    const said = await page.getByTestId('message-assistant').allTextContents()
    expect(said.at(0)).toContain('Hello! Ask me anything.')
    expect(said.at(-1)).toContain('Goodbye, take care.')
    await expect.poll(() => page.getByTestId('message-tool_call').count()).toBe(1)
    // The model heard the user's audio, and remembers the call as the page shows it
    expect(fake.commits).toHaveLength(1)
    expect(fake.conversation().map((item) => item.role ?? item.type)).toEqual([
      'assistant',
      'user',
      'function_call',
      'function_call_output',
      'assistant',
    ])
  }, 60_000)
})
