import { randomUUID } from 'node:crypto'
import {
  holdFrames,
  MicdropErrorCode,
  type ConversationStore,
  type MicdropCalls,
} from '@openmic/server'
import { SileroVAD } from '@openmic/silero'
import { TwilioServer } from '@openmic/twilio'
import type { WebSocket } from 'ws'
import { createCallParts, warnOnStoreError, type CallFactories } from '../call-parts.js'
import type { DemoConfig } from '../config.js'
import { streamParams } from './stream-token.js'

/** How long a stream may take to send `start` (Twilio sends it right after `connected`). */
const START_TIMEOUT_MS = 5000

/** What a phone call is run with: the demo's providers, store and calls, and Twilio's side. */
export interface PhoneCallContext {
  config: DemoConfig
  factories: CallFactories
  calls: MicdropCalls
  store: ConversationStore
  /** The deployment's stream token (`streamToken`). */
  token: string
  /** Traces and measures the call (OpenTelemetry), when telemetry is on. */
  instrument?: (call: TwilioServer) => void
  /** Hangs up through Twilio's REST API, when its credentials are configured. */
  hangUp?: (callSid: string) => Promise<void>
}

/**
 * Runs a phone call on the Media Stream Twilio opened: one `TwilioServer` with its own Silero
 * VAD, the providers of the configuration, and the demo's conversation store (a phone call is
 * kept while it lasts, under an id of its own). A stream that does not carry the deployment's
 * token is refused (`params`): closed with 4401.
 */
export function answerPhoneCall(socket: WebSocket, context: PhoneCallContext): void {
  // The call's first messages come while its providers are being built: they wait for the call
  holdFrames(socket)
  createCallParts(context.factories, context.config)
    .then((parts) => {
      const call = new TwilioServer(socket, {
        ...parts,
        vad: new SileroVAD(),
        generateFirstMessage: true,
        store: context.store,
        conversationId: `phone-${randomUUID()}`,
        hangUp: context.hangUp,
        params: (parameters) => {
          try {
            return streamParams(context.token, parameters)
          } catch (error) {
            console.warn(`A phone stream was refused: ${(error as Error).message}`)
            throw error
          }
        },
      })
      // A socket that never says which call it carries holds providers for nothing
      const noStart = setTimeout(() => {
        if (call.callStart || call.isEnded) return
        console.warn(`A phone stream sent no start in ${START_TIMEOUT_MS} ms: closed`)
        call.close(MicdropErrorCode.BadRequest, 'No start')
      }, START_TIMEOUT_MS)
      call.once('End', () => clearTimeout(noStart))
      warnOnStoreError(call)
      context.instrument?.(call)
      context.calls.add(call)
    })
    .catch((error: unknown) => {
      console.error('A phone call could not start:', error)
      // Read again, so that the closing handshake completes (the held frames go with the socket)
      socket.resume()
      if (socket.readyState === socket.OPEN) socket.close(1011, 'Internal error')
    })
}
