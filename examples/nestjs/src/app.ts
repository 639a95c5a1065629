import 'reflect-metadata'
import { NestFactory } from '@nestjs/core'
import { WsAdapter } from '@nestjs/platform-ws'
import type { INestApplication } from '@nestjs/common'
import type { CallOptions } from './call-options.js'
import { CallModule } from './call.module.js'

/** A Nest application with the `/call` gateway on the `ws` adapter (not listening yet). */
export async function createApp(options: CallOptions): Promise<INestApplication> {
  const app = await NestFactory.create(CallModule.forRoot(options), { logger: ['error', 'warn'] })
  app.useWebSocketAdapter(new WsAdapter(app))
  return app
}
