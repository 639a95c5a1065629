import { twilioWebhookRequest, voiceWebhookParams } from '@openmic/testing/twilio'
import { describe, expect, it } from 'vitest'
import { twilioVoiceWebhook } from '../src/index.js'

const AUTH_TOKEN = 'test-auth-token'
const URL = 'https://voice.example.com/twilio/voice'

describe('twilioVoiceWebhook', () => {
  const webhook = twilioVoiceWebhook({
    authToken: AUTH_TOKEN,
    streamUrl: 'wss://voice.example.com/twilio/stream',
    parameters: (params) => ({ caller: params.From! }),
  })

  it('answers a request the SDK signed with the TwiML of a Media Stream and its parameters', () => {
    const request = twilioWebhookRequest(
      URL,
      voiceWebhookParams({ From: '+33612345678' }),
      AUTH_TOKEN
    )
    const response = webhook({ url: request.url, headers: request.headers, body: request.body })
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('text/xml')
    expect(response.body).toContain('<Connect><Stream url="wss://voice.example.com/twilio/stream">')
    expect(response.body).toContain('<Parameter name="caller" value="+33612345678"/>')
  })

  it('refuses with 403 a request whose signature does not verify, or that has none', () => {
    const signed = twilioWebhookRequest(URL, voiceWebhookParams(), 'another-token')
    expect(webhook({ url: signed.url, headers: signed.headers, body: signed.body }).status).toBe(
      403
    )
    const tampered = twilioWebhookRequest(URL, voiceWebhookParams({ From: '+1' }), AUTH_TOKEN)
    const body = tampered.body.replace('%2B1', '%2B2')
    expect(webhook({ url: tampered.url, headers: tampered.headers, body }).status).toBe(403)
    expect(webhook({ url: URL, headers: {}, body: tampered.body }).status).toBe(403)
  })
})
