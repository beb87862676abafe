import { randomUUID } from 'node:crypto';
import { ERRORS, type ErrorCode } from '@loyalty-gateway/core';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { drainUnreadBody, isDraining } from './drain-unread-body.js';
import { REQUEST_ID_HEADER, requestId } from './request-id.js';

/** Node's clientError codes, to ours: what an HTTP parser or a request timeout refused. */
function codeOf(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT') return 'request_timeout';
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'headers_too_large';
  return 'malformed_request';
}

/**
 * Whether the request Node refused is a HEAD (the bytes it was parsing start with one): its answer
 * is the head only, as for any HEAD, or the client would read the body as the answer to its next request.
 */
const isHead = (error: NodeJS.ErrnoException & { rawPacket?: unknown }): boolean =>
  Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';

/**
 * The spec's Error body for `code` (the head only for a HEAD), written raw on a socket Node's HTTP
 * parser no longer reads, then the connection closed (after a bounded drain of what the client
 * still sends, so a client still writing its body reads this answer instead of a reset).
 */
function writeRawError(socket: Socket, code: ErrorCode, requestId: string, headers = '', head = false): void {
  const entry = ERRORS[code];
  const body = JSON.stringify({ statusCode: entry.status, message: entry.message, code, requestId });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${entry.status} ${statusText(entry.status)}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `${REQUEST_ID_HEADER}: ${requestId}\r\n${headers}Connection: close\r\n\r\n${head ? '' : body}`,
    );
  }
  drainUnreadBody(socket);
  socket.destroySoon();
}

/**
 * Fastify's `clientErrorHandler`: a request Node refused before Fastify saw it (a body or headers
 * that never finished in time, oversized headers, bytes that are not HTTP) gets the spec's Error
 * body with a request id, written raw on the socket, then the connection is closed, instead of
 * Node's or Fastify's own bodies.
 */
export function clientErrorHandler(log: () => FastifyBaseLogger) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // The request was answered already, from its headers, and its body is being discarded: a body
    // that breaks the framing gets no second answer (the client would read it as the next one's).
    if (isDraining(socket)) return void socket.destroySoon();
    const code = codeOf(error);
    const requestId = randomUUID();
    log().info({ reqId: requestId, code, err: { code: error.code, message: error.message } }, 'request refused before routing');
    writeRawError(socket, code, requestId, '', isHead(error));
  };
}

/**
 * The server's `connect` listener: the gateway is no proxy, and without a listener Node closes a
 * CONNECT request's connection without a word. It is answered 405 method_not_allowed (an empty
 * Allow: no method opens a tunnel here) with the request's own X-Request-ID when acceptable, and
 * the connection closed (Node has handed the socket over: no further request is read on it).
 */
export function refuseConnect(log: () => FastifyBaseLogger) {
  return (request: IncomingMessage, socket: Socket): void => {
    const id = requestId(request);
    log().info({ reqId: id, code: 'method_not_allowed', method: request.method }, 'request refused before routing');
    writeRawError(socket, 'method_not_allowed', id, 'Allow: \r\n');
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};
const statusText = (status: number) => STATUS_TEXT[status] ?? 'Error';
