import type { IncomingMessage, ServerResponse } from 'node:http'
import { LoopbackServer } from '../net/loopback-server.js'
import { waitUntil } from '../net/websocket-fake-server.js'
import { recordExchange } from '../sse-server/recorded-exchange.js'
import type { RecordedRequest } from '../sse-server/types.js'
import { readBasicAuth } from './basic-auth.js'
import {
  callResourceJson,
  type FakeTwilioCallRecord,
  type TwilioCallStatus,
} from './call-resource.js'
import { FakeTwilioCall, type FakeTwilioCallOptions } from './FakeTwilioCall.js'
import { sendTwilioJson, TWILIO_ERRORS } from './rest-errors.js'
import { twilioSid } from './sids.js'
import { readTwimlStream } from './twiml-stream.js'
import { twilioWebhookRequest } from './webhook-request.js'

/** Options of {@link createFakeTwilioApi}. */
export interface FakeTwilioApiOptions {
  /** The account (default: a random `AC…`). */
  accountSid?: string
  /** Its auth token (default: random). */
  authToken?: string
  /** API keys of the account: key SID (`SK…`) to secret. */
  apiKeys?: Record<string, string>
  /** Told of every call created through `POST …/Calls.json`, once recorded. */
  onCallCreated?: (call: FakeTwilioCallRecord) => void
  /**
   * Numbers Twilio would find invalid though they look like E.164 (a creation with one as `To`
   * gets 400 and code 21211, as `From` 21212). A number that is not E.164 always does.
   */
  invalidNumbers?: string[]
}

/** Options of {@link FakeTwilioApi.answer}. */
export interface FakeTwilioAnswerOptions extends Omit<
  FakeTwilioCallOptions,
  'url' | 'accountSid' | 'callSid' | 'customParameters'
> {
  /**
   * Where the stream really connects, given the TwiML's `<Stream url>` (a `wss://` URL the test
   * cannot reach): e.g. `() => server.url`. Default: the TwiML's URL.
   */
  url?: (streamUrl: string) => string
}

/** A request the fake REST API received, with what it answered. */
export interface RecordedTwilioRequest extends RecordedRequest {
  /** The form body, decoded (`To`, `From`, `Url`, `Status`…). */
  params: Record<string, string>
  /** The HTTP status answered. */
  status: number
  /** Which credentials were accepted: the auth token, an API key, or none (a 401). */
  auth: 'auth-token' | 'api-key' | 'none'
}

/** A status callback the fake posted (signed) when a call with a `StatusCallback` ended. */
export interface SentStatusCallback {
  url: string
  params: Record<string, string>
  /** The HTTP status the callback got, or the error of the request. */
  status?: number
  error?: string
}

const CALLS = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/
const CALL = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/
const ENDED: TwilioCallStatus[] = ['completed', 'busy', 'failed', 'no-answer', 'canceled']
/** What Twilio accepts as a number to call: E.164, or a Client or SIP address (`To` only). */
const E164 = /^\+[1-9]\d{1,14}$/
const ADDRESS = /^(client|sip):\S+$/
/** Twilio's limit on inline TwiML. */
const MAX_TWIML_CHARS = 4000

/**
 * A fake of Twilio's REST API on 127.0.0.1, for what a voice server calls: create a call
 * (`POST /2010-04-01/Accounts/{AccountSid}/Calls.json` with `To`, `From` and `Url`, `Twiml` or
 * `ApplicationSid`; 201 and the call, `queued`; 400 with Twilio's code for a missing or invalid
 * number, 21211 for `To`, or TwiML over 4 000 characters), fetch one (`GET …/Calls/{CallSid}.json`), and
 * update one (`POST …/Calls/{CallSid}.json`): `Status=completed` hangs it up (and the Media
 * Stream attached to it, which sends `stop` and closes), `Twiml=` or `Url=` redirects it. HTTP
 * Basic auth is checked (the account SID and auth token, or an API key SID and secret: 401 and
 * code 20003 otherwise), an unknown call or route gets 404 and code 20404, and the bodies are
 * Twilio's JSON, so the official `twilio` SDK parses them. Every request is recorded. A created
 * call whose TwiML connects a stream can be answered ({@link FakeTwilioApi.answer}): its Media
 * Stream then connects, as a {@link FakeTwilioCall}.
 *
 * @example
 * const api = await createFakeTwilioApi()
 * const client = twilio(api.accountSid, api.authToken)
 * client.api.baseUrl = api.baseURL // every api.twilio.com request goes to the fake
 * await client.calls.create({ to: '+15005550006', from: '+15005550001', twiml: '<Response/>' })
 * api.calls[0].status // 'queued'
 * await api.close()
 */
export class FakeTwilioApi {
  readonly accountSid: string
  readonly authToken: string
  /** Every request received, in order. */
  readonly requests: RecordedTwilioRequest[] = []
  /** Every call known, in the order they were created or added. */
  readonly calls: FakeTwilioCallRecord[] = []
  /** Every status callback posted. */
  readonly statusCallbacks: SentStatusCallback[] = []
  private readonly apiKeys: Map<string, string>
  private readonly http: LoopbackServer

  constructor(private readonly options: FakeTwilioApiOptions = {}) {
    this.accountSid = options.accountSid ?? twilioSid('AC')
    this.authToken = options.authToken ?? twilioSid('').slice(0, 32)
    this.apiKeys = new Map(Object.entries(options.apiKeys ?? {}))
    this.http = new LoopbackServer((req, res) => {
      this.handle(req, res).catch(() => res.destroy())
    })
  }

  /** Starts listening on a free port of 127.0.0.1. */
  async listen(): Promise<this> {
    await this.http.listen()
    return this
  }

  /**
   * `http://127.0.0.1:<port>`: the base URL of Twilio's `api` domain. With the SDK:
   * `client.api.baseUrl = fake.baseURL`.
   */
  get baseURL(): string {
    return this.http.origin
  }

  /** Adds an API key of the account (`SK…` and its secret); returns its SID. */
  addApiKey(sid: string = twilioSid('SK'), secret: string = twilioSid('').slice(0, 32)): string {
    this.apiKeys.set(sid, secret)
    return sid
  }

  /** The secret of an API key added. */
  apiKeySecret(sid: string): string | undefined {
    return this.apiKeys.get(sid)
  }

  /** The call of this SID, if known. */
  call(sid: string): FakeTwilioCallRecord | undefined {
    return this.calls.find((call) => call.sid === sid)
  }

  /** Adds a call (by default an incoming one, in progress), as if Twilio had it already. */
  addCall(init: Partial<Omit<FakeTwilioCallRecord, 'updates'>> = {}): FakeTwilioCallRecord {
    const now = new Date()
    const call: FakeTwilioCallRecord = {
      sid: twilioSid('CA'),
      accountSid: this.accountSid,
      from: '+15005550006',
      to: '+15005550001',
      direction: 'inbound',
      status: 'in-progress',
      dateCreated: now,
      dateUpdated: now,
      startTime: now,
      ...init,
      updates: [],
    }
    this.calls.push(call)
    return call
  }

  /**
   * Attaches a Media Stream to its call (by `callSid`; the call is added, in progress, if unknown):
   * a REST hang-up of the call then hangs the stream up, as Twilio ends the stream of a call that
   * ends. Connect the stream with this fake's `accountSid`.
   */
  attach(stream: FakeTwilioCall): FakeTwilioCallRecord {
    const call =
      this.call(stream.callSid) ??
      this.addCall({ sid: stream.callSid, accountSid: stream.accountSid, direction: 'inbound' })
    if (!ENDED.includes(call.status)) this.setStatus(call, 'in-progress')
    call.stream = stream
    return call
  }

  /**
   * The callee answers a call created with TwiML that connects a Media Stream
   * (`<Connect><Stream url>`): a {@link FakeTwilioCall} connects to the stream's URL with the
   * call's SIDs and the TwiML's `<Parameter>`s as `customParameters`, and is attached to the
   * call, which is then `in-progress` (a status callback that asked for `answered` is posted).
   */
  async answer(callSid: string, options: FakeTwilioAnswerOptions = {}): Promise<FakeTwilioCall> {
    const call = this.call(callSid)
    if (!call) throw new Error(`Fake Twilio API: no call ${callSid} to answer`)
    if (call.status !== 'queued' && call.status !== 'ringing') {
      throw new Error(
        `Fake Twilio API: call ${callSid} is ${call.status}, not waiting for an answer`
      )
    }
    const stream = readTwimlStream(call.twiml ?? '')
    if (!stream) throw new Error(`Fake Twilio API: the TwiML of ${callSid} connects no <Stream>`)
    const { url = (streamUrl: string) => streamUrl, ...connect } = options
    const media = await FakeTwilioCall.connect({
      ...connect,
      url: url(stream.url),
      accountSid: call.accountSid,
      callSid: call.sid,
      customParameters: stream.parameters,
    })
    this.attach(media)
    if (call.statusCallback && call.statusCallbackEvent?.includes('answered')) {
      void this.postStatusCallback(call)
    }
    return media
  }

  /** Resolves once `count` requests were received, or rejects after `timeoutMs`. */
  async waitForRequests(count: number, timeoutMs = 5000): Promise<RecordedTwilioRequest[]> {
    await waitUntil(
      () => this.requests.length >= count,
      timeoutMs,
      () => `Fake Twilio API: ${this.requests.length} of ${count} requests received`
    )
    return this.requests.slice(0, count)
  }

  /** Stops the server, cutting open connections. */
  async close(): Promise<void> {
    await this.http.close()
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { request } = await recordExchange(req, res, {
      params: {} as Record<string, string>,
      status: 0,
      auth: 'none' as RecordedTwilioRequest['auth'],
    })
    request.params = Object.fromEntries(new URLSearchParams(request.rawBody))
    this.requests.push(request)
    const answer = (status: number, body: unknown) => {
      request.status = status
      sendTwilioJson(res, status, body)
    }
    const auth = this.authenticate(req)
    const pathAccount = (CALLS.exec(request.path) ?? CALL.exec(request.path))?.[1]
    // Twilio checks credentials before anything else; the path's account must be theirs.
    if (!auth || (pathAccount !== undefined && pathAccount !== this.accountSid)) {
      return answer(401, TWILIO_ERRORS.authenticate())
    }
    request.auth = auth
    const callSid = CALL.exec(request.path)?.[2]
    if (request.method === 'POST' && CALLS.test(request.path)) {
      const [status, body] = this.createCall(request.params, request.rawBody)
      return answer(status, body)
    }
    const call = callSid === undefined ? undefined : this.call(callSid)
    if (!call || (request.method !== 'POST' && request.method !== 'GET')) {
      return answer(404, TWILIO_ERRORS.notFound(request.path))
    }
    if (request.method === 'GET') return answer(200, callResourceJson(call))
    const [status, body] = this.updateCall(call, request.params)
    return answer(status, body)
  }

  private authenticate(req: IncomingMessage): RecordedTwilioRequest['auth'] | undefined {
    const credentials = readBasicAuth(req.headers)
    if (!credentials) return undefined
    const { username, password } = credentials
    if (username === this.accountSid && password === this.authToken) return 'auth-token'
    if (this.apiKeys.has(username) && this.apiKeys.get(username) === password) return 'api-key'
    return undefined
  }

  private createCall(params: Record<string, string>, rawBody: string): [number, unknown] {
    if (!params.To) return [400, TWILIO_ERRORS.missingTo()]
    if (!params.From) return [400, TWILIO_ERRORS.missingFrom()]
    if (!this.validNumber(params.To) && !ADDRESS.test(params.To)) {
      return [400, TWILIO_ERRORS.invalidTo(params.To)]
    }
    if (!this.validNumber(params.From)) return [400, TWILIO_ERRORS.invalidFrom(params.From)]
    if (!params.Url && !params.Twiml && !params.ApplicationSid) {
      return [400, TWILIO_ERRORS.missingUrl()]
    }
    if (params.Twiml && params.Twiml.length > MAX_TWIML_CHARS) {
      return [400, TWILIO_ERRORS.twimlTooLong()]
    }
    // The SDK repeats the field for each event; one value may also list several
    const events = new URLSearchParams(rawBody).getAll('StatusCallbackEvent')
    const call = this.addCall({
      from: params.From,
      to: params.To,
      direction: 'outbound-api',
      status: 'queued',
      startTime: undefined,
      url: params.Url,
      twiml: params.Twiml,
      statusCallback: params.StatusCallback,
      statusCallbackEvent: events.length
        ? events.flatMap((event) => event.split(/[\s,]+/)).filter(Boolean)
        : undefined,
    })
    this.options.onCallCreated?.(call)
    return [201, callResourceJson(call)]
  }

  private validNumber(number: string): boolean {
    return E164.test(number) && !this.options.invalidNumbers?.includes(number)
  }

  private updateCall(
    call: FakeTwilioCallRecord,
    params: Record<string, string>
  ): [number, unknown] {
    const { Status: status, Twiml: twiml, Url: url } = params
    if (status !== undefined && status !== 'completed' && status !== 'canceled') {
      return [400, TWILIO_ERRORS.badStatus(status)]
    }
    if ((twiml !== undefined || url !== undefined) && status === undefined) {
      if (call.status !== 'in-progress') return [400, TWILIO_ERRORS.notInProgress()]
      if (twiml !== undefined) call.twiml = twiml
      if (url !== undefined) call.url = url
    }
    call.updates.push(params)
    call.dateUpdated = new Date()
    if (status === 'completed' && !ENDED.includes(call.status)) this.end(call, 'completed')
    // `canceled` only ends a call not answered yet, as with Twilio.
    if (status === 'canceled' && (call.status === 'queued' || call.status === 'ringing')) {
      this.end(call, 'canceled')
    }
    return [200, callResourceJson(call)]
  }

  private end(call: FakeTwilioCallRecord, status: TwilioCallStatus): void {
    this.setStatus(call, status)
    call.endTime = new Date()
    void call.stream?.hangUp('api')
    if (call.statusCallback) void this.postStatusCallback(call)
  }

  private setStatus(call: FakeTwilioCallRecord, status: TwilioCallStatus): void {
    call.status = status
    call.dateUpdated = new Date()
    if (status === 'in-progress' && !call.startTime) call.startTime = call.dateUpdated
  }

  /** Posts the call's end to its `StatusCallback`, form-encoded and signed like Twilio does. */
  private async postStatusCallback(call: FakeTwilioCallRecord): Promise<void> {
    const request = twilioWebhookRequest(
      call.statusCallback!,
      {
        AccountSid: call.accountSid,
        CallSid: call.sid,
        From: call.from,
        To: call.to,
        CallStatus: call.status,
        Direction: call.direction,
        CallDuration: String(
          call.startTime ? Math.round((Date.now() - call.startTime.getTime()) / 1000) : 0
        ),
      },
      this.authToken
    )
    const sent: SentStatusCallback = { url: request.url, params: request.params }
    this.statusCallbacks.push(sent)
    try {
      const res = await fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
      })
      sent.status = res.status
      await res.body?.cancel()
    } catch (error) {
      sent.error = error instanceof Error ? error.message : String(error)
    }
  }
}

/** Starts a {@link FakeTwilioApi} on a free port of 127.0.0.1. */
export function createFakeTwilioApi(options: FakeTwilioApiOptions = {}): Promise<FakeTwilioApi> {
  return new FakeTwilioApi(options).listen()
}
