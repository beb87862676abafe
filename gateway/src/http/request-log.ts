import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { traceIdsOf } from '../tracing/request-span.js';
import { requestLineWriter, type RequestLineWriter } from './request-line.js';
import './fastify-types.js';
import { routeOf } from './route-of.js';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value.slice(0, 255) : undefined;
};

/**
 * One log line per request, written when the response is finished: who called (vendor, store,
 * connection), what it was (eventType, transaction, refund) and how it ended (status, outcome).
 * Replaces Fastify's two default lines. Health probes log at debug only.
 */
export class RequestLogController extends LogController {
  private readonly writeLine: RequestLineWriter | undefined;

  /**
   * @param lineLogger writes the request line without redaction (see GatewayLogging.requestLine);
   * without one, lines go through the request's own (redacting) logger.
   */
  constructor(lineLogger?: FastifyBaseLogger | undefined) {
    super();
    this.writeLine = lineLogger ? requestLineWriter(lineLogger) : undefined;
  }

  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const connection = request.connection;
    const audit = request.audit;
    // With tracing on and the request sampled: its trace and root span (the line is written after the answer, outside it).
    const trace = traceIdsOf(request);
    const line = {
      // The request's own logger binds reqId; the line logger does not (undefined is not written).
      reqId: this.writeLine ? request.id : undefined,
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      // The client address (X-Forwarded-For's only from GATEWAY_TRUSTED_PROXIES).
      remoteAddress: request.ip,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
      // Unauthenticated requests: what they claimed to be, so support can find them.
      vendor: connection?.vendor ?? header(request, 'x-service-vendor'),
      store: connection?.storeId ?? header(request, 'x-service-store'),
      connectionId: connection?.id,
      eventType: audit?.eventType,
      eventId: audit?.eventId,
      transactionId: audit?.transactionId,
      refundId: audit?.refundId,
      outcome: audit?.outcome,
      // Absent (undefined is not written) unless traced.
      trace_id: trace?.traceId,
      span_id: trace?.spanId,
    };
    if (error) return reply.log.error({ ...line, reqId: undefined, err: error }, 'request errored');
    const level = routeOf(request).config?.probe === true ? 'debug' : 'info';
    if (this.writeLine) this.writeLine(level, line, 'request completed');
    else reply.log[level](line, 'request completed');
  }
}
