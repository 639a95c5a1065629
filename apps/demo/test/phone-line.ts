import type { AddressInfo } from 'node:net'
import type { TTS } from '@openmic/core'
import type { MicdropConversationItem } from '@openmic/core/protocol'
import { MemoryConversationStore, type ConversationRecord } from '@openmic/server'
import {
  createFakeTwilioApi,
  FakeTwilioCall,
  twilioWebhookRequest,
  type FakeTwilioApi,
  type FakeTwilioCallRecord,
} from '@openmic/testing/twilio'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/server/app.js'
import { defaultFactories, type CallFactories } from '../src/server/call-parts.js'
import { loadConfig } from '../src/server/config.js'

/** The origin the Twilio number's webhook is configured with (a tunnel's, in production). */
export const PUBLIC_URL = 'https://phone.example.test'

/** A store whose conversations a test can read: the phone call's id is its own. */
class WatchedStore extends MemoryConversationStore {
  readonly ids: string[] = []
  override append(id: string, index: number, record: ConversationRecord): Promise<void> {
    if (!this.ids.includes(id)) this.ids.push(id)
    return super.append(id, index, record)
  }
}

/** The demo with Twilio configured against a fake REST API, and what the test reads of it. */
export interface PhoneDemo {
  app: FastifyInstance
  api: FakeTwilioApi
  /** Where the demo listens: `http://127.0.0.1:<port>`. */
  origin: string
  /** Audio of each `speak()` of the calls' TTS, in ms (PCM16 16 kHz), in order. */
  spokenMs: number[]
  /** The conversation stored for the (only) phone call, as items. */
  stored(): Promise<MicdropConversationItem[]>
  close(): Promise<void>
}

/**
 * Starts the demo with Twilio's credentials (those of a fake REST API), `env` on top (providers),
 * and `factories` in place of some providers; every TTS counts the audio of each answer.
 */
export async function startPhoneDemo(
  env: Record<string, string>,
  factories: Partial<CallFactories> = {}
): Promise<PhoneDemo> {
  const api = await createFakeTwilioApi()
  const config = loadConfig({
    PORT: '0',
    TWILIO_ACCOUNT_SID: api.accountSid,
    TWILIO_AUTH_TOKEN: api.authToken,
    TWILIO_API_BASE_URL: api.baseURL,
    OPENMIC_PUBLIC_URL: PUBLIC_URL,
    ...env,
  })
  const spokenMs: number[] = []
  const store = new WatchedStore()
  const all = { ...defaultFactories, ...factories }
  const app = await buildApp(
    config,
    {
      ...all,
      createTTS: async (c) => {
        const tts: TTS = await all.createTTS(c)
        let current = 0
        tts.on('Audio', (audio) => {
          if (current === spokenMs.length) spokenMs.push(0)
          spokenMs[current]! += audio.length / 32
        })
        tts.on('AudioEnd', () => (current = spokenMs.length))
        return tts
      },
    },
    undefined,
    store
  )
  await app.listen({ host: '127.0.0.1', port: 0 })
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  return {
    app,
    api,
    origin,
    spokenMs,
    async stored() {
      const id = store.ids[0]
      if (!id) return []
      const items: MicdropConversationItem[] = []
      for (const record of await store.load(id)) {
        if (record.type === 'item') items.push(record.item)
        else {
          const last = items.findLastIndex((item) => item.role === 'user')
          if (last >= 0) items.splice(last, 1)
        }
      }
      return items
    },
    async close() {
      await app.close()
      await api.close()
    },
  }
}

/** A phone call into the demo, as Twilio places it: the webhook, then the Media Stream it names. */
export interface PlacedCall {
  call: FakeTwilioCall
  /** The call as the fake REST API knows it (its status, its updates). */
  record: FakeTwilioCallRecord
  /** The `<Stream url>` of the TwiML. */
  streamUrl: string
  /** Its `<Parameter>`s. */
  parameters: Record<string, string>
}

/**
 * Posts a voice webhook signed by the real SDK for the public URL, reads the TwiML's stream URL
 * and parameters, and opens the stream on the demo's address (as the tunnel would).
 */
export async function placeCall(demo: PhoneDemo): Promise<PlacedCall> {
  const hook = twilioWebhookRequest(
    `${PUBLIC_URL}/twilio/voice`,
    { AccountSid: demo.api.accountSid, From: '+33612345678' },
    demo.api.authToken
  )
  const response = await fetch(`${demo.origin}/twilio/voice`, {
    method: 'POST',
    headers: hook.headers,
    body: hook.body,
  })
  if (response.status !== 200) throw new Error(`The webhook answered ${response.status}`)
  const { streamUrl, parameters } = readStreamTwiml(await response.text())
  const call = await FakeTwilioCall.connect({
    url: `${demo.origin.replace('http', 'ws')}${new URL(streamUrl).pathname}`,
    accountSid: demo.api.accountSid,
    callSid: hook.params.CallSid,
    customParameters: parameters,
  })
  return { call, record: demo.api.attach(call), streamUrl, parameters }
}

/** The `<Stream url>` and its `<Parameter>`s in TwiML (the SDK writes them, escaped). */
export function readStreamTwiml(twiml: string): {
  streamUrl: string
  parameters: Record<string, string>
} {
  const unescape = (text: string) =>
    text
      .replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&')
  const url = /<Connect><Stream url="([^"]+)">/.exec(twiml)?.[1]
  if (!url) throw new Error(`No <Connect><Stream> in ${twiml}`)
  const parameters: Record<string, string> = {}
  for (const [, name, value] of twiml.matchAll(/<Parameter name="([^"]*)" value="([^"]*)"\/>/g)) {
    parameters[unescape(name!)] = unescape(value!)
  }
  return { streamUrl: unescape(url), parameters }
}
