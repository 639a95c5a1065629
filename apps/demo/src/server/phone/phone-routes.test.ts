import type { AddressInfo } from 'node:net'
import { FakeTwilioCall, twilioWebhookRequest } from '@openmic/testing/twilio'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { buildApp } from '../app.js'
import { loadConfig } from '../config.js'

const PUBLIC_URL = 'https://phone.example.test'
const AUTH_TOKEN = 'test-auth-token'
const MOCKS = { OPENMIC_AGENT: 'mock', OPENMIC_STT: 'mock', OPENMIC_TTS: 'mock' }

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

async function start(env: Record<string, string>): Promise<string> {
  app = await buildApp(loadConfig({ ...MOCKS, ...env }))
  await app.listen({ host: '127.0.0.1', port: 0 })
  return `127.0.0.1:${(app.server.address() as AddressInfo).port}`
}

const PHONE = { TWILIO_AUTH_TOKEN: AUTH_TOKEN, OPENMIC_PUBLIC_URL: PUBLIC_URL }

function post(host: string, signedWith: string, query = '') {
  const hook = twilioWebhookRequest(`${PUBLIC_URL}/twilio/voice${query}`, {}, signedWith)
  return fetch(`http://${host}/twilio/voice${query}`, {
    method: 'POST',
    headers: hook.headers,
    body: hook.body,
  })
}

/** The `<Parameter>`s of the TwiML. */
function parametersOf(twiml: string): Record<string, string> {
  return Object.fromEntries(
    [...twiml.matchAll(/<Parameter name="([^"]*)" value="([^"]*)"\/>/g)].map(([, n, v]) => [n, v])
  )
}

describe('the demo phone endpoints', () => {
  it('do not exist unless TWILIO_AUTH_TOKEN is set', async () => {
    const host = await start({})
    expect((await post(host, AUTH_TOKEN)).status).toBe(404)
  })

  it('answer a webhook signed for the public URL with the TwiML of the stream, 403 otherwise', async () => {
    const host = await start(PHONE)
    const response = await post(host, AUTH_TOKEN, '?campaign=a')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/xml/)
    const twiml = await response.text()
    expect(twiml).toContain('<Connect><Stream url="wss://phone.example.test/twilio/stream">')
    expect(parametersOf(twiml)).toMatchObject({ from: '+15005550006', to: '+15005550001' })
    expect(parametersOf(twiml).streamToken).toMatch(/^[\w-]{40,}$/)
    expect((await post(host, 'another-token')).status).toBe(403)
    // Signed for another URL than the one Twilio was configured with
    const hook = twilioWebhookRequest('http://127.0.0.1/twilio/voice', {}, AUTH_TOKEN)
    const local = await fetch(`http://${host}/twilio/voice`, {
      method: 'POST',
      headers: hook.headers,
      body: hook.body,
    })
    expect(local.status).toBe(403)
  })

  it('greets a stream that carries the token, and closes one without it with 4401', async () => {
    const host = await start(PHONE)
    const { streamToken } = parametersOf(await (await post(host, AUTH_TOKEN)).text())
    // `connected` and `start` go out right after the upgrade: none of it may be lost while the
    // call's providers are built
    const good = await FakeTwilioCall.connect({
      url: `ws://${host}/twilio/stream`,
      customParameters: { streamToken: streamToken! },
    })
    await good.waitFor(() => good.heardMs > 0, 5000, 'the greeting')
    good.drop()
    const bad = await FakeTwilioCall.connect({
      url: `ws://${host}/twilio/stream`,
      customParameters: { streamToken: 'guess' },
    })
    expect(await bad.closed).toMatchObject({ code: 4401, reason: 'Invalid stream token' })
    expect(bad.received.filter((frame) => frame.data.includes('"media"'))).toEqual([])
  })

  it('closes a stream that never sends start with 4400, once it waited 5 s', async () => {
    const host = await start(PHONE)
    const socket = new WebSocket(`ws://${host}/twilio/stream`)
    const [code, reason] = await new Promise<[number, string]>((resolve) =>
      socket.on('close', (code, reason) => resolve([code, reason.toString()]))
    )
    expect([code, reason]).toEqual([4400, 'No start'])
  }, 15_000)
})
