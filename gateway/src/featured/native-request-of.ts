import { trimTrailingSlashes, type NativeRequest } from '@loyalty-gateway/core';
import type { FastifyRequest } from 'fastify';
import { peerCertificateOf } from '../tls/peer-certificate.js';

const EMPTY = Buffer.alloc(0);

function flatHeaders(request: FastifyRequest): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * The URL a vendor signed (Square's `url+body` HMAC): the provider's configured `notificationUrl`
 * byte for byte; else GATEWAY_PUBLIC_URL + the path (proxies rewrite the local URL); else the URL
 * this request arrived on.
 */
export function signedUrlOf(request: FastifyRequest, notificationUrl: string | undefined, publicUrl: string | undefined): string {
  if (notificationUrl) return notificationUrl;
  if (publicUrl) return trimTrailingSlashes(publicUrl) + request.url;
  return `${request.protocol}://${request.host}${request.url}`;
}

/** What an adapter sees of the HTTP request: raw bytes, lower-cased headers, TCP peer, client certificate. */
export function nativeRequestOf(request: FastifyRequest, url: string): NativeRequest {
  const socket = request.raw.socket;
  return {
    method: request.method,
    url,
    headers: flatHeaders(request),
    rawBody: Buffer.isBuffer(request.body) ? request.body : EMPTY,
    remoteAddress: socket.remoteAddress ?? '',
    peerCertificate: peerCertificateOf(socket),
  };
}
