import type { IncomingMessage, ServerResponse } from 'node:http'
import { LoopbackServer } from '../net/loopback-server.js'
import { recordExchange } from '../sse-server/recorded-exchange.js'
import type { RecordedRequest } from '../sse-server/types.js'
import type { FakeTelnyxCall } from './FakeTelnyxCall.js'
import { telnyxUuid } from './ids.js'

/** Options of {@link createFakeTelnyxApi}. */
export interface FakeTelnyxApiOptions {
  /** The API key accepted as `Authorization: Bearer …` (default: random). */
  apiKey?: string
}

/** A request the fake received, with the status it answered. */
export interface RecordedTelnyxRequest extends RecordedRequest {
  status: number
}

/** A call the fake knows, and whether the API hung it up. */
export interface FakeTelnyxCallRecord {
  callControlId: string
  hungUp: boolean
  stream?: FakeTelnyxCall
}

const HANGUP = /^\/v2\/calls\/([^/]+)\/actions\/hangup$/

/**
 * A fake of Telnyx's Call Control API on 127.0.0.1, for what a voice server calls: hang up
 * (`POST /v2/calls/{call_control_id}/actions/hangup`, 200 and `{ data: { result: "ok" } }`), which
 * also stops the media stream attached to the call. The API key is checked (401 otherwise), an
 * unknown call or route gets 404, a call already ended 422; every request is recorded. Point the
 * official `telnyx` SDK at it with `new Telnyx({ apiKey, baseURL: fake.baseURL })`.
 */
export class FakeTelnyxApi {
  readonly apiKey: string
  /** Every request received, in order. */
  readonly requests: RecordedTelnyxRequest[] = []
  private readonly calls = new Map<string, FakeTelnyxCallRecord>()
  private readonly http: LoopbackServer

  constructor(options: FakeTelnyxApiOptions = {}) {
    this.apiKey = options.apiKey ?? `KEY${telnyxUuid().replaceAll('-', '')}`
    this.http = new LoopbackServer((req, res) => {
      this.handle(req, res).catch(() => res.destroy())
    })
  }

  /** Starts listening on a free port of 127.0.0.1. */
  async listen(): Promise<this> {
    await this.http.listen()
    return this
  }

  /** `http://127.0.0.1:<port>/v2`: the SDK's `baseURL`. */
  get baseURL(): string {
    return `${this.http.origin}/v2`
  }

  /** Makes a media stream's call known: a hang-up through the API then stops the stream. */
  attach(stream: FakeTelnyxCall): FakeTelnyxCallRecord {
    const record = this.calls.get(stream.callControlId) ?? {
      callControlId: stream.callControlId,
      hungUp: false,
    }
    record.stream = stream
    this.calls.set(stream.callControlId, record)
    return record
  }

  async close(): Promise<void> {
    await this.http.close()
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { request } = await recordExchange(req, res, { status: 0 })
    this.requests.push(request)
    const answer = (status: number, body: unknown) => {
      request.status = status
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
    const error = (status: number, code: string, title: string) =>
      answer(status, { errors: [{ code, title, detail: title }] })
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
      return error(401, '10009', 'Authentication failed')
    }
    const id = HANGUP.exec(request.path)?.[1]
    const call = id === undefined ? undefined : this.calls.get(decodeURIComponent(id))
    if (request.method !== 'POST' || !call) return error(404, '10005', 'Resource not found')
    if (call.hungUp) return error(422, '90018', 'Call has already ended')
    call.hungUp = true
    void call.stream?.hangUp('api')
    answer(200, { data: { result: 'ok' } })
  }
}

/** A {@link FakeTelnyxApi} listening on 127.0.0.1. */
export function createFakeTelnyxApi(options: FakeTelnyxApiOptions = {}): Promise<FakeTelnyxApi> {
  return new FakeTelnyxApi(options).listen()
}
