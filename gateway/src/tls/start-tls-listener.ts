import { readFile } from 'node:fs/promises';
import type { AnyAdapter } from '@loyalty-gateway/core';
import type { Server } from 'node:https';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { adapters as registeredAdapters } from '../adapters.js';
import { buildApp, type AppOptions } from '../app.js';
import type { VendorChanges } from '../featured/index.js';
import type { GatewayStore } from '../stores/index.js';
import { keepClientCasCurrent, type ClientCaRefresh } from './keep-client-cas-current.js';
import { providerCaBundle } from './provider-ca-bundle.js';
import { tlsServerFactory } from './tls-server-factory.js';

export interface TlsListenerOptions {
  /** The same options (engine, stores, caches, featured doors) the plain HTTP app was built with. */
  appOptions: AppOptions;
  store: Pick<GatewayStore, 'listVendors' | 'getVendor'>;
  host: string;
  port: number;
  certFile: string;
  keyFile: string;
  adapters?: readonly AnyAdapter[] | undefined;
  /** Provider settings changes: the advertised client CAs follow them without a restart. */
  changes?: VendorChanges | undefined;
  log: FastifyBaseLogger;
}

/**
 * The mTLS `direct` listener (GATEWAY_TLS_PORT): a second app instance on an HTTPS server,
 * serving the same routes with the same services (engine, stores, idempotency cache), so a
 * featured door reached here sees the client certificate. Returns the app, listening. The CAs it
 * advertises follow provider settings changes (`changes`) without a restart.
 */
export async function startTlsListener(
  options: TlsListenerOptions,
): Promise<{ app: FastifyInstance; port: number; clientCas: ClientCaRefresh }> {
  const [cert, key] = await Promise.all([readFile(options.certFile, 'utf8'), readFile(options.keyFile, 'utf8')]);
  const adapters = options.adapters ?? registeredAdapters;
  const ca = await providerCaBundle(options.store, adapters);
  const app = await buildApp({ ...options.appOptions, serverFactory: tlsServerFactory({ cert, key, ca }) });
  try {
    await app.listen({ port: options.port, host: options.host });
  } catch (error) {
    await app.close();
    throw error;
  }
  const port = (app.server.address() as { port: number }).port;
  const clientCas = keepClientCasCurrent({
    server: app.server as unknown as Server,
    material: { cert, key, ca },
    store: options.store,
    adapters,
    changes: options.changes,
    log: options.log,
  });
  options.log.info({ port, providerCas: ca.length }, 'mTLS listener ready (HTTPS, client certificates requested)');
  return { app, port, clientCas };
}
