// @openmic/otel: OpenTelemetry traces and metrics for openmic calls, on @opentelemetry/api only.
export { instrumentCall, INSTRUMENTATION_NAME } from './instrument-call.js'
export type { CallTelemetry, InstrumentCallOptions } from './instrument-call.js'
export type { CallModels } from './call-parts.js'
export { LATENCY_BUCKETS_MS } from './call-metrics.js'
export { TracedLogger } from './traced-logger.js'
