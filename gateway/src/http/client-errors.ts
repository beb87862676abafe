import { randomUUID } from 'node:crypto';
import { ERRORS, type ErrorCode } from '@loyalty-gateway/core';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { drainUnreadBody } from './drain-unread-body.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** Node's clientError codes, to ours: what an HTTP parser or a request timeout refused. */
function codeOf(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT') return 'request_timeout';
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'headers_too_large';
  return 'malformed_request';
}

/**
 * Fastify's `clientErrorHandler`: a request Node refused before Fastify saw it (a body or headers
 * that never finished in time, oversized headers, bytes that are not HTTP) gets the spec's Error
 * body with a request id, written raw on the socket, then the connection is closed (after a
 * bounded drain of what the client still sends), instead of Node's or Fastify's own bodies.
 */
export function clientErrorHandler(log: () => FastifyBaseLogger) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const code = codeOf(error);
    const entry = ERRORS[code];
    const requestId = randomUUID();
    const body = JSON.stringify({ statusCode: entry.status, message: entry.message, code, requestId });
    log().info({ reqId: requestId, code, err: { code: error.code, message: error.message } }, 'request refused before routing');
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${entry.status} ${statusText(entry.status)}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    // Half-closed, and what the client still sends read and discarded first (a bounded drain), so
    // a client still writing its body reads this answer instead of a reset.
    drainUnreadBody(socket);
    socket.destroySoon();
  };
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };
const statusText = (status: number) => STATUS_TEXT[status] ?? 'Error';
