import type { FakeTwilioCall } from './FakeTwilioCall.js'

/** The states of a Twilio call. */
export type TwilioCallStatus =
  'queued' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'failed' | 'no-answer' | 'canceled'

/** A call the fake REST API knows: created through it, or added by the test. */
export interface FakeTwilioCallRecord {
  sid: string
  accountSid: string
  from: string
  to: string
  direction: 'inbound' | 'outbound-api'
  status: TwilioCallStatus
  /** The TwiML URL of a created call (`Url`). */
  url?: string
  /** The TwiML of a created call (`Twiml`), or of its last update. */
  twiml?: string
  statusCallback?: string
  statusCallbackEvent?: string[]
  dateCreated: Date
  dateUpdated: Date
  startTime?: Date
  endTime?: Date
  /** The form parameters of every update (`POST …/Calls/{sid}.json`), in order. */
  updates: Array<Record<string, string>>
  /** The Media Stream of this call, when a test attached one: a REST hang-up ends it. */
  stream?: FakeTwilioCall
}

/** A call as Twilio's REST API gives it (`CallResource` of the SDK), snake_case, RFC 2822 dates. */
export function callResourceJson(call: FakeTwilioCallRecord): Record<string, unknown> {
  const uri = `/2010-04-01/Accounts/${call.accountSid}/Calls/${call.sid}`
  const duration =
    call.startTime && call.endTime
      ? String(Math.round((call.endTime.getTime() - call.startTime.getTime()) / 1000))
      : null
  return {
    sid: call.sid,
    date_created: rfc2822(call.dateCreated),
    date_updated: rfc2822(call.dateUpdated),
    parent_call_sid: null,
    account_sid: call.accountSid,
    to: call.to,
    to_formatted: call.to,
    from: call.from,
    from_formatted: call.from,
    phone_number_sid: null,
    status: call.status,
    start_time: call.startTime ? rfc2822(call.startTime) : null,
    end_time: call.endTime ? rfc2822(call.endTime) : null,
    duration,
    price: null,
    price_unit: 'USD',
    direction: call.direction,
    answered_by: null,
    api_version: '2010-04-01',
    forwarded_from: null,
    group_sid: null,
    caller_name: null,
    queue_time: '0',
    trunk_sid: null,
    uri: `${uri}.json`,
    subresource_uris: {
      notifications: `${uri}/Notifications.json`,
      recordings: `${uri}/Recordings.json`,
      streams: `${uri}/Streams.json`,
      events: `${uri}/Events.json`,
    },
  }
}

/** `Tue, 31 Aug 2010 20:36:28 +0000`, the date format of Twilio's JSON. */
function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000')
}
