import type { BeforeApplicationShutdown } from '@nestjs/common'
import { Inject } from '@nestjs/common'
import { WebSocketGateway, type OnGatewayConnection } from '@nestjs/websockets'
import {
  handleError,
  MicdropCalls,
  MicdropError,
  MicdropErrorCode,
  MicdropServer,
  waitForParams,
} from '@openmic/server'
import type { WebSocket } from 'ws'
import { z } from 'zod'
import { CALL_OPTIONS, type CallOptions } from './call-options.js'

const CallParams = z.object({
  token: z.string(),
  conversationId: z
    .string()
    .regex(/^[\w-]{1,100}$/)
    .optional(),
})

/**
 * The `/call` WebSocket: each connection sends its params first (token, conversation id), then is
 * handed to a `MicdropServer`. On shutdown the calls are drained: answers in progress end, then the
 * calls close with 1012 and their clients reconnect.
 */
@WebSocketGateway({ path: '/call' })
export class CallGateway implements OnGatewayConnection, BeforeApplicationShutdown {
  private readonly calls = new MicdropCalls()

  // Explicit @Inject: the gateway does not rely on emitted decorator metadata.
  constructor(@Inject(CALL_OPTIONS) private readonly options: CallOptions) {}

  async handleConnection(socket: WebSocket): Promise<void> {
    try {
      const params = await waitForParams(socket, (p) => CallParams.parse(p))
      if (params.token !== this.options.token) {
        throw new MicdropError(MicdropErrorCode.Unauthorized, 'Invalid token')
      }
      const call = this.options.createCall()
      this.calls.add(
        new MicdropServer(socket, {
          ...call,
          ...(params.conversationId
            ? { store: this.options.store, conversationId: params.conversationId }
            : {}),
        })
      )
    } catch (error) {
      handleError(socket, error)
    }
  }

  /** Calls in progress. */
  get activeCalls(): number {
    return this.calls.size
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.calls.drain({ deadlineMs: this.options.drainDeadlineMs })
  }
}
