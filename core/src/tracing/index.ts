export { annotateSpan, inSpan, traceIds, traceLogFields, tracingOn, type SpanAttributes, type SpanHandle, type TraceIds } from './spans.js';
export { startTracing, type RunningTracing, type StartTracingOptions } from './start-tracing.js';
export { tracesExporterOf } from './tracing-wanted.js';
