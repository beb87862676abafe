/** Attribute values a span may carry: ids, names and outcomes, never secrets, bodies or contact data. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** What code inside a span may add to it (its outcome, what it found). */
export interface SpanHandle {
  set(attributes: SpanAttributes): void;
}

/** A trace and span id, as W3C trace context writes them (hex). */
export interface TraceIds {
  traceId: string;
  spanId: string;
}

/** What a started tracer provides to the functions below (start-tracing.ts installs it). */
export interface TracingRuntime {
  inSpan<T>(name: string, attributes: SpanAttributes, fn: (span: SpanHandle) => T, parent?: unknown): T;
  /** The ids of `parent` (an OpenTelemetry context) or of the active span, when it is sampled (exported). */
  ids(parent?: unknown): TraceIds | undefined;
  /** Add attributes to the span of `parent` (a request's root span, once its outcome is known). */
  annotate(parent: unknown, attributes: SpanAttributes): void;
}

const NOOP: SpanHandle = { set() {} };

let runtime: TracingRuntime | undefined;

/** Installed once by startTracing; undefined again after its shutdown. */
export function setTracingRuntime(next: TracingRuntime | undefined): void {
  runtime = next;
}

/** Whether this process traces (OTEL_* set): code may skip preparing attributes when not. */
export const tracingOn = (): boolean => runtime !== undefined;

/**
 * Run `fn` in a child span of `parent` (an OpenTelemetry context, e.g. a request's) or of the
 * active span. With tracing off this is `fn(NOOP)`: nothing of OpenTelemetry is loaded, no span,
 * no context switch. A failure ends the span with status ERROR and the error's code or type only
 * (never its message: it may quote the request).
 */
export function inSpan<T>(name: string, attributes: SpanAttributes, fn: (span: SpanHandle) => T, parent?: unknown): T {
  return runtime === undefined ? fn(NOOP) : runtime.inSpan(name, attributes, fn, parent);
}

/** The active (or `parent`'s) trace and span ids, when tracing is on and the span is sampled. */
export const traceIds = (parent?: unknown): TraceIds | undefined => runtime?.ids(parent);

/** Attributes on `parent`'s span (e.g. a request's root span) when tracing is on. */
export function annotateSpan(parent: unknown, attributes: SpanAttributes): void {
  runtime?.annotate(parent, attributes);
}

/**
 * pino's `mixin`: `trace_id` and `span_id` on every log line written while a span is active. A new
 * object each time: pino's merge assigns the line's own fields into it.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const ids = runtime?.ids();
  return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}
