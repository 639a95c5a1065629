// The real OpenTelemetry SDK with in-memory exporters, for the tests to read what a call emitted.
import type { HrTime } from '@opentelemetry/api'
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base'

/** A reader collected by hand: no timer, so nothing runs on the simulator's virtual clock. */
class ManualReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

export type Telemetry = ReturnType<typeof createTelemetry>

export function createTelemetry() {
  const exporter = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  })
  const reader = new ManualReader()
  const meterProvider = new MeterProvider({ readers: [reader] })

  const spans = () => exporter.getFinishedSpans()
  const named = (name: string) => spans().filter((s) => s.name === name)
  const span = (name: string): ReadableSpan => {
    const found = named(name)
    if (found.length !== 1) throw new Error(`${found.length} spans named ${name}`)
    return found[0]!
  }
  /** The spans whose parent is `parent`, by name, in the order they started. */
  const children = (parent: ReadableSpan) =>
    spans()
      .filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId)
      .sort((a, b) => hrMs(a.startTime) - hrMs(b.startTime))
  /** The data points of one metric, by name. */
  const points = async (name: string): Promise<DataPoint<unknown>[]> => {
    const { resourceMetrics } = await reader.collect()
    for (const scope of resourceMetrics.scopeMetrics)
      for (const metric of scope.metrics)
        if (metric.descriptor.name === name) return metric.dataPoints
    return []
  }
  /** The one histogram point of a metric: its sum, count and bucket counts. */
  const histogram = async (name: string): Promise<Histogram> => {
    const found = await points(name)
    if (found.length !== 1) throw new Error(`${found.length} points of ${name}`)
    return found[0]!.value as Histogram
  }
  /** The value of a counter for the points whose attributes include `attributes`. */
  const counter = async (name: string, attributes: Record<string, unknown> = {}) =>
    (await points(name))
      .filter((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v))
      .reduce((sum, p) => sum + (p.value as number), 0)
  return {
    tracerProvider,
    meterProvider,
    spans,
    named,
    span,
    children,
    points,
    histogram,
    counter,
    DataPointType,
  }
}

/** A span's duration, in ms. */
export function durationMs(span: ReadableSpan): number {
  return hrMs(span.duration)
}

/** `to - from`, in ms. */
export function betweenMs(from: HrTime, to: HrTime): number {
  return hrMs(to) - hrMs(from)
}

/** Whether `child` lies within `parent` in time. */
export function within(child: ReadableSpan, parent: ReadableSpan): boolean {
  return (
    hrMs(child.startTime) >= hrMs(parent.startTime) && hrMs(child.endTime) <= hrMs(parent.endTime)
  )
}

export function hrMs([seconds, nanos]: HrTime): number {
  return seconds * 1000 + nanos / 1e6
}
