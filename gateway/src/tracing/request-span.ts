import { annotateSpan, inSpan, traceIds, tracingOn, type SpanAttributes, type SpanHandle, type TraceIds } from '@loyalty-gateway/core';
import type { FastifyRequest } from 'fastify';

/** What @fastify/otel decorates a request with when tracing is on (absent otherwise). */
type Traced = { opentelemetry?: () => { context?: unknown } };

/**
 * The request's trace context (its root span), or undefined when tracing is off or the path is
 * not traced. Hooks outside the handler (authentication before the body is read, the journal
 * after the answer) run outside the request's async context, so their spans name it explicitly.
 */
export const requestContext = (request: FastifyRequest): unknown =>
  tracingOn() ? (request as unknown as Traced).opentelemetry?.().context : undefined;

/** `fn` in a child span of the request's root span (just `fn` when tracing is off). */
export function inRequestSpan<T>(request: FastifyRequest, name: string, attributes: SpanAttributes, fn: (span: SpanHandle) => T): T {
  return inSpan(name, attributes, fn, requestContext(request));
}

/** The request's trace id and root span id when it is traced and sampled (the journal keeps the trace id). */
export const traceIdsOf = (request: FastifyRequest): TraceIds | undefined => (tracingOn() ? traceIds(requestContext(request)) : undefined);

/** Add attributes to the request's root span. */
export function annotateRequest(request: FastifyRequest, attributes: SpanAttributes): void {
  annotateSpan(requestContext(request), attributes);
}
