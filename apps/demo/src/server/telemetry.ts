import type { IncomingMessage, ServerResponse } from 'node:http'
import type { InstrumentCallOptions } from '@openmic/otel'
import type { MetricReader } from '@opentelemetry/sdk-metrics'
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base'
import type { DemoConfig } from './config.js'

/** How often metrics are pushed over OTLP (Prometheus pulls them when it wants). */
const OTLP_METRICS_INTERVAL_MS = 10_000

/** The demo's OpenTelemetry SDK, as the configuration asks for it. */
export interface DemoTelemetry {
  /** For `instrumentCall`: the providers (none without an exporter: the API's no-ops). */
  providers: Pick<InstrumentCallOptions, 'tracerProvider' | 'meterProvider'>
  /** Answers `GET /metrics` in Prometheus's text format, with `prometheus` on. */
  prometheusHandler?: (request: IncomingMessage, response: ServerResponse) => void
  /** Exports what is left and stops. */
  shutdown(): Promise<void>
}

/**
 * The SDK with the exporters the configuration names: OTLP/HTTP (JSON) traces and metrics to
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (`/v1/traces`, `/v1/metrics`), a Prometheus reader with `OPENMIC_PROMETHEUS`. Loaded only then: a demo
 * without either loads no SDK at all.
 */
export async function createTelemetry(config: DemoConfig): Promise<DemoTelemetry> {
  const readers: MetricReader[] = []
  const spanProcessors: SpanProcessor[] = []
  let prometheusHandler: DemoTelemetry['prometheusHandler']
  const endpoint = config.otlpEndpoint?.replace(/\/$/, '')
  if (endpoint) {
    const [{ OTLPTraceExporter }, { OTLPMetricExporter }, sdkTrace, sdkMetrics] = await Promise.all(
      [
        import('@opentelemetry/exporter-trace-otlp-http'),
        import('@opentelemetry/exporter-metrics-otlp-http'),
        import('@opentelemetry/sdk-trace-base'),
        import('@opentelemetry/sdk-metrics'),
      ]
    )
    spanProcessors.push(
      new sdkTrace.BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))
    )
    readers.push(
      new sdkMetrics.PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${endpoint}/v1/metrics` }),
        exportIntervalMillis: OTLP_METRICS_INTERVAL_MS,
      })
    )
  }
  if (config.prometheus) {
    const { PrometheusExporter } = await import('@opentelemetry/exporter-prometheus')
    // Served on the demo's own port (the `/metrics` route), not on a server of its own.
    const exporter = new PrometheusExporter({ preventServerStart: true })
    readers.push(exporter)
    prometheusHandler = (request, response) => exporter.getMetricsRequestHandler(request, response)
  }
  const providers: DemoTelemetry['providers'] = {}
  if (spanProcessors.length > 0) {
    const { BasicTracerProvider } = await import('@opentelemetry/sdk-trace-base')
    providers.tracerProvider = new BasicTracerProvider({ spanProcessors })
  }
  if (readers.length > 0) {
    const { MeterProvider } = await import('@opentelemetry/sdk-metrics')
    providers.meterProvider = new MeterProvider({ readers })
  }
  return {
    providers,
    prometheusHandler,
    async shutdown() {
      await Promise.all([
        (providers.tracerProvider as { shutdown?: () => Promise<void> } | undefined)?.shutdown?.(),
        (providers.meterProvider as { shutdown?: () => Promise<void> } | undefined)?.shutdown?.(),
      ])
    },
  }
}
