import type { Server } from 'node:http';
import { createServer } from 'node:https';
import type { SecureContextOptions } from 'node:tls';
import type { FastifyServerFactory } from 'fastify';

export interface TlsListenerMaterial {
  /** PEM of the gateway's server certificate (chain) and key (GATEWAY_TLS_CERT_FILE / _KEY_FILE). */
  cert: string;
  key: string;
  /** PEM of every mTLS provider's CA: the acceptable-CA list sent to clients and Node's `authorized` flag. */
  ca: string[];
}

/**
 * An HTTPS server for Fastify that asks every client for a certificate but lets the handshake
 * succeed without one (`rejectUnauthorized: false`): which certificate is good enough is decided
 * per provider at request time by core's `verifyMtls` against that provider's own CA, pins and
 * subject, never by the listener. A client with no or a foreign certificate therefore gets the
 * spec's 401 Error body rather than a TLS alert it cannot read.
 */
export function tlsServerFactory(material: TlsListenerMaterial): FastifyServerFactory {
  return (handler) =>
    createServer(
      // Host is required by the app itself (an Error body, not Node's bare 400), as on the plain listener.
      { ...secureContextOptions(material), requestCert: true, rejectUnauthorized: false, requireHostHeader: false },
      handler,
    ) as unknown as Server;
}

/**
 * The listener's secure context: its own certificate and key, and the providers' CAs (omitted when
 * there are none: Node then advertises no CA names). Also what `server.setSecureContext` is given
 * when a provider's CA changes (keep-client-cas-current.ts).
 */
export const secureContextOptions = (material: TlsListenerMaterial): SecureContextOptions => ({
  cert: material.cert,
  key: material.key,
  ...(material.ca.length > 0 ? { ca: material.ca } : {}),
});
