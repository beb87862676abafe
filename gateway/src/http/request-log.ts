import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import './fastify-types.js';

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
  /**
   * @param lineLogger writes the request line without redaction (see GatewayLogging.requestLine);
   * without one, lines go through the request's own (redacting) logger.
   */
  constructor(private readonly lineLogger?: FastifyBaseLogger | undefined) {
    super();
  }

  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const connection = request.connection;
    const audit = request.audit;
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
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
    };
    if (error) return reply.log.error({ ...line, err: error }, 'request errored');
    const log = this.lineLogger;
    const probe = request.routeOptions?.config?.probe === true;
    if (!log) return probe ? reply.log.debug(line, 'request completed') : reply.log.info(line, 'request completed');
    const withId = { reqId: request.id, ...line };
    if (probe) log.debug(withId, 'request completed');
    else log.info(withId, 'request completed');
  }
}
