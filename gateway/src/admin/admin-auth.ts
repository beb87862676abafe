import { constantTimeEqual, GatewayError } from '@loyalty-gateway/core';
import type { onRequestAsyncHookHandler } from 'fastify';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case, spaces around), or undefined. */
export const bearerToken = (header: unknown): string | undefined => (typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined);

/**
 * `Authorization: Bearer <GATEWAY_ADMIN_TOKEN>`, compared in constant time (hashed first, so the
 * token's length does not leak either); anything else is 401 admin_unauthorized.
 */
export function adminAuth(token: string): onRequestAsyncHookHandler {
  return async (request) => {
    const given = bearerToken(request.headers.authorization);
    if (given === undefined || !constantTimeEqual(given, token)) {
      throw new GatewayError('admin_unauthorized', { headers: { 'www-authenticate': 'Bearer realm="gateway-admin"' } });
    }
  };
}
