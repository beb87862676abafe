import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
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
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (request.routeOptions?.config?.probe === true) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
