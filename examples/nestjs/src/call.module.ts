import { Module, type DynamicModule } from '@nestjs/common'
import { CALL_OPTIONS, type CallOptions } from './call-options.js'
import { CallGateway } from './call.gateway.js'

/** The voice-call module: import `CallModule.forRoot(options)` into your application module. */
@Module({})
export class CallModule {
  static forRoot(options: CallOptions): DynamicModule {
    return {
      module: CallModule,
      providers: [{ provide: CALL_OPTIONS, useValue: options }, CallGateway],
    }
  }
}
