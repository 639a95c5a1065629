import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { buildApp } from './app.js'
import { loadConfig } from './config.js'
import { LOCAL_AGENT_GREETING } from '@openmic/local'

describe('the demo server', () => {
  let app: FastifyInstance
  let base: string

  beforeAll(async () => {
    app = await buildApp(
      loadConfig({ OPENMIC_STT: 'mock', OPENMIC_TTS: 'mock', OPENMIC_TOKEN: 'secret' })
    )
    await app.listen({ host: '127.0.0.1', port: 0 })
    base = `127.0.0.1:${(app.server.address() as AddressInfo).port}`
  })

  afterAll(() => app.close())

  const connect = () => new WebSocket(`ws://${base}/call`)

  it('closes the call with 4401 when the token is wrong', async () => {
    const socket = connect()
    socket.on('open', () => socket.send(JSON.stringify({ token: 'guess' })))
    const [code, reason] = await new Promise<[number, string]>((resolve) =>
      socket.on('close', (code, reason) => resolve([code, reason.toString()]))
    )
    expect(code).toBe(4401)
    expect(reason).toBe('Invalid token')
  })

  it('closes with 4400 when no params arrive', async () => {
    const socket = connect()
    const code = await new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)))
    expect(code).toBe(4400)
  }, 10_000)

  it('greets a caller with the right token: spoken, and added to the conversation', async () => {
    const socket = connect()
    const received: Array<string | number> = []
    socket.on('open', () => socket.send(JSON.stringify({ token: 'secret' })))
    socket.on('message', (data, isBinary) =>
      received.push(isBinary ? (data as Buffer).length : data.toString())
    )
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        const greeted = received.some(
          (frame) => typeof frame === 'string' && frame.startsWith('Message ')
        )
        if (greeted && received.some((frame) => typeof frame === 'number')) {
          clearInterval(check)
          resolve()
        }
      }, 10)
    })
    socket.close()
    expect(received).toContain(
      `Message ${JSON.stringify({ role: 'assistant', content: LOCAL_AGENT_GREETING })}`
    )
    expect(received.filter((frame) => typeof frame === 'number').length).toBeGreaterThan(0)
  })

  it('serves the page, its configuration and the Silero VAD files', async () => {
    const page = await fetch(`http://${base}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<div id="root">')
    expect(await (await fetch(`http://${base}/config.json`)).json()).toEqual({
      agent: 'local',
      stt: 'mock',
      tts: 'mock',
    })
    const model = await fetch(`http://${base}/vad/silero_vad_v5.onnx`)
    expect(model.status).toBe(200)
    expect((await model.arrayBuffer()).byteLength).toBeGreaterThan(100_000)
    expect((await fetch(`http://${base}/ort/ort-wasm-simd-threaded.wasm`)).status).toBe(200)
  })
})
